/* The seed articles' bitmask search, printing every solution as 1-based
 * columns separated by spaces, one solution a line, in lexicographic order
 * (the same text as `nqueens list N`). The enumeration baseline: list
 * speed goals are ratios to this program, measured in the same run.
 * This copy is the project's own (the same program as the seed articles'
 * ../shared/bench/seed_list.c), so that bench/list.sh runs from a fresh clone.
 * Build: cc -O2 -o seed_list seed_list.c    Run: ./seed_list N > out (N <= 32) */
#include <stdio.h>
#include <stdlib.h>

static int n;
static int col[32];
static char buf[1 << 20];
static size_t used;

static void flush(void) { fwrite(buf, 1, used, stdout); used = 0; }

static void emit(void) {
    if (used > sizeof buf - 4 * 32) flush();
    for (int r = 0; r < n; r++) {
        int v = col[r] + 1;
        if (v >= 10) buf[used++] = (char)('0' + v / 10);
        buf[used++] = (char)('0' + v % 10);
        buf[used++] = r == n - 1 ? '\n' : ' ';
    }
}

static void search(int row, unsigned cols, unsigned ld, unsigned rd) {
    if (row == n) { emit(); return; }
    unsigned all = n == 32 ? ~0u : (1u << n) - 1;
    unsigned free = all & ~(cols | ld | rd);
    while (free) {
        unsigned bit = free & -free;
        free ^= bit;
        col[row] = __builtin_ctz(bit);
        search(row + 1, cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
    }
}

int main(int argc, char **argv) {
    if (argc != 2 || (n = atoi(argv[1])) < 1 || n > 32) {
        fprintf(stderr, "usage: seed_list N (1 <= N <= 32)\n");
        return 2;
    }
    search(0, 0, 0, 0);
    flush();
    return 0;
}
