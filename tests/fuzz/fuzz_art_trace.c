/* fuzz_art_trace.c - libFuzzer harness for the art_trace reader (see fuzz_reader.h). */
#define FUZZ_READER art_trace
#include "fuzz_reader.h"
