/* fuzz_perfetto.c - libFuzzer harness for the perfetto reader (see fuzz_reader.h). */
#define FUZZ_READER perfetto
#include "fuzz_reader.h"
