// check: unreach-call
// malloc: may-fail
// expect: FALSE(unreach-call)
// Why: the same program as malloc_null.c, but malloc may return NULL (the C standard), so the error call at line 11 is reached.
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);

int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) /* BUG: taken when the allocation fails */
    reach_error();
  *p = 1;
  free(p);
  return 0;
}
