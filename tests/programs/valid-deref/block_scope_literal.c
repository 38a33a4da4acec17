// check: valid-memsafety
// expect: TRUE
// Why: a compound literal lives as long as the block it is written in: `q` points to the loop body's literal only inside the body (lines 12-13), and `p` to one of main's block (line 15), read while it lives (line 16).
struct pt {
  int x;
  int y;
};

int main(void) {
  int s = 0;
  for (int i = 0; i < 3; i++) {
    struct pt *q = &(struct pt){i, i + 1};
    s += q->y;
  }
  int *p = (int[]){1, 2};
  return s + p[1] != 8; /* OK: the literal of p lives until main returns */
}
