/* fuzz_uiautomator.c - libFuzzer harness for the uiautomator reader (see fuzz_reader.h). */
#define FUZZ_READER uiautomator
#include "fuzz_reader.h"
