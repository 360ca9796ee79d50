/* fuzz_dumpsys_activity.c - libFuzzer harness for the dumpsys_activity reader (see fuzz_reader.h). */
#define FUZZ_READER dumpsys_activity
#include "fuzz_reader.h"
