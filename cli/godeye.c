/* godeye.c - the driver (placeholder while the foundation lands). */
#include <stdio.h>
int main(void) { puts("godeye " GODEYE_VERSION); return 0; }
