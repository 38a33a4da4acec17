// check: unreach-call
// expect: FALSE(unreach-call)
// Why: the twin of normalised_tags.c leaves the tag 2 as it is (line 28), which the walk reports (line 35).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

enum { FREE_SLOT = 0, USED = 1, END = 7 };

struct slot {
  struct slot *next;
  int tag;
};

int main(void) {
  struct slot *end = malloc(sizeof(struct slot));
  if (!end)
    return 0;
  end->tag = END;
  end->next = NULL;
  struct slot *first = end;
  while (__VERIFIER_nondet_int()) {
    struct slot *s = malloc(sizeof(struct slot));
    if (!s)
      break;
    s->next = first;
    s->tag = __VERIFIER_nondet_int();
    if (s->tag != FREE_SLOT && s->tag != USED && s->tag != 2)
      s->tag = USED;
    first = s;
  }
  struct slot *p = first;
  while (p->tag != END) {
    if (p->tag != FREE_SLOT && p->tag != USED)
      reach_error();
    p = p->next;
  }
  if (p->next != NULL)
    reach_error();
  while (first->tag != END) {
    struct slot *n = first->next;
    free(first);
    first = n;
  }
  free(first);
  return 0;
}
