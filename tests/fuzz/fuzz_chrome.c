/* fuzz_chrome.c - libFuzzer harness for the chrome reader (see fuzz_reader.h). */
#define FUZZ_READER chrome
#include "fuzz_reader.h"
