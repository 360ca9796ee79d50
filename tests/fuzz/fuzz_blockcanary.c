/* fuzz_blockcanary.c - libFuzzer harness for the blockcanary reader (see fuzz_reader.h). */
#define FUZZ_READER blockcanary
#include "fuzz_reader.h"
