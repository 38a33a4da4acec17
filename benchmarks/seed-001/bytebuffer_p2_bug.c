/* Seed 001 ("Refining Existential Properties in Separation Logic Analyses"), Table 1 row 13
 * (Azureus ByteBufferPool, Property 2): if the pool has a free buffer, a request allocates
 * no new buffer.
 *
 * The pool keeps free buffers in a singly-linked free list (LIFO), at most POOL_CAP of them
 * (counted in pool_size). get_buffer takes the first free buffer, or allocates a new one
 * (setting allocated_new) when the list is empty; free_buffer marks the buffer free by
 * setting its position to the sentinel FREE_POS (as early Azureus versions did) and pushes
 * it if the pool has room, otherwise it frees it. The client holds any number of buffers
 * (linked through `next` while held) and does any sequence of requests and releases. Then
 * it requests a buffer b and, the pool having room, releases it, so the pool has a free
 * buffer; then any number of releases (no requests), which only push or free other buffers:
 * the next request must not allocate (an address property, SH^rls: b stays in the free list).
 * BUGGY TWIN: the client may also request buffers between releasing b and the checked
 * request (client_step(held, 1)), so it can drain the pool and the request allocates.
 * (The pool_size guards always hold here; they spare the analysis the counter arithmetic.)
 * Expected: FALSE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void free(void *);
extern void abort(void);

#define POOL_CAP 4
#define FREE_POS (-1)

struct buf {
  int position;
  struct buf *next;
};

struct buf *pool = 0;
int pool_size = 0;
int allocated_new = 0;

struct buf *get_buffer(void) {
  struct buf *b = pool;
  if (b != 0) {
    pool = b->next;
    pool_size = pool_size - 1;
  } else {
    b = malloc(sizeof(struct buf));
    if (!b) abort();
    allocated_new = 1;
  }
  b->position = 0;
  b->next = 0;
  return b;
}

void free_buffer(struct buf *b) {
  b->position = FREE_POS;
  if (pool_size < POOL_CAP) {
    b->next = pool;
    pool = b;
    pool_size = pool_size + 1;
  } else {
    free(b);
  }
}

/* One client step: a request (if allowed and chosen) or the release of a held buffer. */
struct buf *client_step(struct buf *held, int allow_request) {
  struct buf *b;
  if (allow_request && __VERIFIER_nondet_int()) {
    b = get_buffer();
    b->position = __VERIFIER_nondet_int();
    b->next = held;
    return b;
  }
  if (held != 0) {
    b = held;
    held = b->next;
    free_buffer(b);
  }
  return held;
}

int main(void) {
  struct buf *held = 0;
  while (__VERIFIER_nondet_int())
    held = client_step(held, 1);
  struct buf *b = get_buffer();
  if (pool_size < POOL_CAP) {
    free_buffer(b);
    while (__VERIFIER_nondet_int())
      held = client_step(held, 1);
    allocated_new = 0;
    get_buffer();
    if (!(allocated_new == 0)) reach_error();
  }
  return 0;
}
