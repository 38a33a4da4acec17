/* Buggy twin of buffer_pool_three.c: the pool is pre-filled with two buffers only, so the
 * third take after the loop may find it empty.
 * Expected: FALSE (unreach-call)
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
