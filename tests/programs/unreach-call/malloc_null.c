// check: unreach-call
// malloc: never-fails
// expect: TRUE
// Why: under SV-COMP's rule that allocation never fails, the NULL branch at line 11 is dead; its twin checks the same program where malloc may fail.
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);

int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) /* OK: never taken when allocation succeeds */
    reach_error();
  *p = 1;
  free(p);
  return 0;
}
