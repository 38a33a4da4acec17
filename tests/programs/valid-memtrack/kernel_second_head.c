// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a struct embedding two list heads, `link` (for a ring of masters) and `slaves` heading a ring of its own slaves: the second head is a node of its own, allocated and freed with the master; every slave is unlinked and freed before the master is.
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
struct list_head { struct list_head *next, *prev; };
struct slave { int id; struct list_head link; };
struct master { struct list_head link; int key; struct list_head slaves; };
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
static void init(struct list_head *h) { h->next = h; h->prev = h; }
static void add(struct list_head *new, struct list_head *head) {
    struct list_head *next = head->next;
    next->prev = new; new->next = next; new->prev = head; head->next = new;
}
static void del(struct list_head *e) { e->prev->next = e->next; e->next->prev = e->prev; }
int main(void) {
    struct master *m = malloc(sizeof *m);
    if (!m) abort();
    init(&m->link);
    init(&m->slaves);
    while (__VERIFIER_nondet_int()) {
        struct slave *s = malloc(sizeof *s);
        if (!s) abort();
        s->id = 1;
        add(&s->link, &m->slaves);
    }
    while (m->slaves.next != &m->slaves) {
        struct slave *s = container_of(m->slaves.next, struct slave, link);
        del(&s->link);
        free(s);
    }
    free(m);
    return 0;
}
