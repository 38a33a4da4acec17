// check: valid-memsafety
// expect: FALSE(valid-memtrack)
// Why: the cleanup loop frees each record's counter but not its name buffer (line 32), so the last pointer to the name goes with the record.
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
    free(list);
    list = next;
  }
  return 0;
}
