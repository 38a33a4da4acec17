/* `advance` breaks its contract only when a nondeterministic input is 42: a run of the
 * logic's model shows the break, but the concrete replays (every input 0, then every input
 * 1) return the successor, which meets the contract, so the verdict must not be FALSE.
 */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

typedef struct node {
  struct node *n;
} *List;

List advance(List h) {
  List r = h->n;
  if (__VERIFIER_nondet_int() == 42)
    r = h;
  return r;
}

int main(void) {
  List h = malloc(sizeof(struct node));
  if (h == NULL)
    return 0;
  h->n = NULL;
  List r = advance(h);
  free(h);
  return r == NULL ? 0 : 1;
}
