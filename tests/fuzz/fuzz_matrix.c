/* fuzz_matrix.c - libFuzzer harness for the matrix reader (see fuzz_reader.h). */
#define FUZZ_READER matrix
#include "fuzz_reader.h"
