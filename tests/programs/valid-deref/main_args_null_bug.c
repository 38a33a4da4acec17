// check: valid-memsafety
// expect: FALSE(valid-deref)
// Why: with argc == 1, argv[1] is NULL and argv[1][0] on line 5 dereferences it.
int main(int argc, char **argv) {
  return argv[1][0] == 'x';
}
