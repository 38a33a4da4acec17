// check: valid-memsafety
// expect: TRUE
// Why: each iteration declares a variable-length array and reads it through `p` inside the body (line 13); `p` is pointed at `keep` (line 15) before the array dies with its block.
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
      p = &keep;
  }
  return *p != 1;
}
