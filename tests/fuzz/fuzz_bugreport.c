/* fuzz_bugreport.c - libFuzzer harness for the bugreport reader's text
 * splitter (see fuzz_reader.h); inputs starting with PK go the zip way,
 * which fuzz_bugreport_zip.c covers with small caps. */
#define FUZZ_READER bugreport
#include "fuzz_reader.h"
