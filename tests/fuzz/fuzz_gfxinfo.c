/* fuzz_gfxinfo.c - libFuzzer harness for the gfxinfo reader (see fuzz_reader.h). */
#define FUZZ_READER gfxinfo
#include "fuzz_reader.h"
