// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: as block_scope_vla.c, but `p` is left pointing into the last iteration's variable-length array (line 15), so the read after the loop (line 17) reaches a dead block.
int main(void) {
  int keep = 0;
  int *p = 0;
  for (int i = 1; i < 4; i++) {
    int a[i];
    for (int j = 0; j < i; j++)
      a[j] = j;
    p = a;
    if (i == 2)
      keep = p[1];
    if (i == 3)
      p = p + 2; /* BUG: p keeps pointing into the array, which dies at the end of the body */
  }
  return *p != 1;
}
