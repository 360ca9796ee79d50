/* fuzz_logcat.c - libFuzzer harness for the logcat reader (see fuzz_reader.h). */
#define FUZZ_READER logcat
#include "fuzz_reader.h"
