// check: valid-memsafety
// expect: TRUE
// Why: every record owns an int counter and a zeroed name buffer through its raw fields (lines 19-20); the counters are read and bumped while the list is walked (line 28) and both buffers are freed with their record (lines 31-32).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct record {
  struct record *next;
  int *count;
  char *name;
};

int main(void) {
  struct record *list = NULL;
  while (__VERIFIER_nondet_int()) {
    struct record *r = malloc(sizeof(struct record));
    if (!r)
      abort();
    r->count = malloc(sizeof(int));
    r->name = calloc(8, 1);
    if (!r->count || !r->name)
      abort();
    *r->count = 0;
    r->next = list;
    list = r;
  }
  for (struct record *p = list; p; p = p->next)
    *p->count = *p->count + 1;
  while (list) {
    struct record *next = list->next;
    free(list->count);
    free(list->name);
    free(list);
    list = next;
  }
  return 0;
}
