/* fuzz_simpleperf.c - libFuzzer harness for the simpleperf reader (see fuzz_reader.h). */
#define FUZZ_READER simpleperf
#include "fuzz_reader.h"
