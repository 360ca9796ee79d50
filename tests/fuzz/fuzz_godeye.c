/* fuzz_godeye.c - libFuzzer harness for the godeye reader (see fuzz_reader.h). */
#define FUZZ_READER godeye
#include "fuzz_reader.h"
