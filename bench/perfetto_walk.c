/* perfetto_walk.c - the floor for bench/perfetto_bench.sh: reads a Perfetto
 * trace and only counts its packets (key and length varints, then skips the
 * body), with the same 64 KiB reads as godeye's input layer. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned char buf[65536];
static size_t pos, len;
static FILE *in;

static int next(void)
{
    if (pos == len) {
        len = fread(buf, 1, sizeof buf, in);
        pos = 0;
        if (len == 0)
            return -1;
    }
    return buf[pos++];
}

static int varint(uint64_t *v)
{
    *v = 0;
    for (int s = 0; s < 70; s += 7) {
        int c = next();
        if (c < 0)
            return 0;
        *v |= (uint64_t)(c & 0x7F) << s;
        if (!(c & 0x80))
            return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2 || !(in = fopen(argv[1], "rb"))) {
        fprintf(stderr, "usage: perfetto-walk TRACE\n");
        return 2;
    }
    uint64_t key, n, packets = 0;
    while (varint(&key) && varint(&n)) {
        while (n > 0) {
            if (pos == len && next() >= 0)
                pos--;
            size_t k = len - pos < n ? len - pos : (size_t)n;
            if (k == 0)
                break;
            pos += k;
            n -= k;
        }
        packets++;
    }
    printf("%llu packets\n", (unsigned long long)packets);
    fclose(in);
    return 0;
}
