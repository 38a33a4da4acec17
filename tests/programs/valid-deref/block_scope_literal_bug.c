// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: as block_scope_literal.c, but `last` keeps the address of the loop body's compound literal (line 15), which dies with the body, and is read after the loop (line 18).
struct pt {
  int x;
  int y;
};

int main(void) {
  int s = 0;
  struct pt *last = 0;
  for (int i = 0; i < 3; i++) {
    struct pt *q = &(struct pt){i, i + 1};
    s += q->y;
    last = q;
  }
  int *p = (int[]){1, 2};
  return s + p[1] + last->x != 8; /* BUG: last points to a literal of the ended loop body */
}
