/* fuzz_am_start.c - libFuzzer harness for the am start -W reader (see fuzz_reader.h). */
#define FUZZ_READER am_start
#include "fuzz_reader.h"
