/* fuzz_anr.c - libFuzzer harness for the anr reader (see fuzz_reader.h). */
#define FUZZ_READER anr
#include "fuzz_reader.h"
