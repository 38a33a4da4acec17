/* Seed 001, a domain of the user's own: a pool pre-filled with three buffers; each round
 * either adds a new buffer or takes one, uses it and gives it back, so the pool never holds
 * fewer than three. Afterwards three buffers are taken without a check of their own.
 * The library's domains cannot prove this (a protected address keeps the first cell, not
 * the third); the user spec `lengths.shape` (segments with a lower bound on their length)
 * proves it with `--spec lengths.shape`.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);
struct buf { struct buf *next; int size; };
struct buf *pool;
void give(struct buf *b) { b->next = pool; pool = b; }
struct buf *take(void) {
  struct buf *b = pool;
  if (b) pool = b->next;
  return b;
}
struct buf *fresh(void) {
  struct buf *b = malloc(sizeof(struct buf));
  if (!b) abort();
  b->size = 0;
  return b;
}
int main(void) {
  pool = 0;
  give(fresh());
  give(fresh());
  give(fresh());
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int()) {
      give(fresh());
    } else {
      struct buf *b = take();
      if (!b) reach_error();
      b->size = __VERIFIER_nondet_int();
      give(b);
    }
  }
  struct buf *a = take();
  struct buf *b = take();
  struct buf *c = take();
  if (!a || !b || !c) reach_error();
  return 0;
}
