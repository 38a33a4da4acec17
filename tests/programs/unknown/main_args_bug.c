// check: unreach-call
// expect: FALSE(unreach-call)
// Why: with argc >= 2 and argv[1] = "x" the error on line 6 is reached; argc is not fixed to 1.
extern void reach_error(void);
int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == 'x') reach_error();
  return 0;
}
