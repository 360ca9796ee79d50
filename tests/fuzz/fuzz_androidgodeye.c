/* fuzz_androidgodeye.c - libFuzzer harness for the androidgodeye reader (see fuzz_reader.h). */
#define FUZZ_READER androidgodeye
#include "fuzz_reader.h"
