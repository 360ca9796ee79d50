/* fuzz_procstat.c - libFuzzer harness for the procstat reader (see fuzz_reader.h). */
#define FUZZ_READER procstat
#include "fuzz_reader.h"
