// check: valid-memsafety
// expect: TRUE
// Why: main ignores its parameters, so they are not modelled and the proof is not bounded; argv[argc] is never read.
int main(int argc, char **argv) {
  return 0;
}
