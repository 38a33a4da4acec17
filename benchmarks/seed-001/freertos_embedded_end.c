/* Seed 001, beyond Table 1: the FreeRTOS-style sorted cyclic list whose end marker is
 * embedded in the list structure, as FreeRTOS's List_t embeds xListEnd next to its item
 * count. Insertions of values below the marker's portMAX_DELAY keep the list sorted; then a
 * walk from the marker's successor until the first value portMAX_DELAY must end at the
 * marker itself. The list variable is split into one variable per field, the embedded
 * marker becoming a cell of its own (T = {1000, &L.end}).
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
extern void *malloc(unsigned long);
extern void abort(void);
#define MAXV 1000
struct item { int value; struct item *next; };
struct list { int count; struct item end; };
struct list L;
void insert(int v) {
  struct item *n = malloc(sizeof(struct item));
  if (!n) abort();
  n->value = v;
  struct item *it = &L.end;
  while (it->next->value <= v) it = it->next;
  n->next = it->next; it->next = n;
  L.count++;
}
int main(void) {
  L.end.value = MAXV; L.end.next = &L.end; L.count = 0;
  while (__VERIFIER_nondet_int()) {
    int v = __VERIFIER_nondet_int();
    if (v < MAXV) insert(v);
  }
  struct item *p = L.end.next;
  while (p->value != MAXV) p = p->next;
  if (p != &L.end) reach_error();
  return 0;
}
