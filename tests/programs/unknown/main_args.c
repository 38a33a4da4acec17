// check: unreach-call
// expect: UNKNOWN
// expect-reason: modelled only up to argc
// Why: the error needs more than five command-line arguments (line 6); argc and argv are modelled only up to a bound, so no TRUE may be given.
extern void reach_error(void);
int main(int argc, char **argv) {
  if (argc > 5 && argv[5][0] == 'y') reach_error();
  return 0;
}
