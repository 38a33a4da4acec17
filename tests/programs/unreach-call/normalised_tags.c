// check: unreach-call
// expect: TRUE
// Why: like tagged_slots.c, but each slot's tag is read from the input and normalised to USED unless it is FREE_SLOT (line 28); the walk (line 33) only meets the two tags; the shape analysis splits on the unknown tag at line 28.
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
    if (s->tag != FREE_SLOT && s->tag != USED)
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
