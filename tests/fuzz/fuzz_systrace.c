/* fuzz_systrace.c - libFuzzer harness for the systrace reader (see fuzz_reader.h). */
#define FUZZ_READER systrace
#include "fuzz_reader.h"
