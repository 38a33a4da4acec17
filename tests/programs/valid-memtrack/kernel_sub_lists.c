// check: valid-memsafety
// data-model: LP64
// expect: TRUE
// Why: a Linux-style ring of masters (an embedded list_head) whose elements each own a plain list of slaves through `slaves`, a link held by a carrier; each master's slaves are drained through the link before the master leaves the ring and is freed.
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
struct list_head { struct list_head *next, *prev; };
struct slave { struct slave *next; int id; };
struct master { int key; struct list_head link; struct slave *slaves; };
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
static void add(struct list_head *new, struct list_head *head) {
    struct list_head *next = head->next;
    next->prev = new; new->next = next; new->prev = head; head->next = new;
}
static void del(struct list_head *e) { e->prev->next = e->next; e->next->prev = e->prev; }
static struct list_head masters = { &masters, &masters };
int main(void) {
    while (__VERIFIER_nondet_int()) {
        struct master *m = malloc(sizeof *m);
        if (!m) abort();
        m->slaves = NULL;
        while (__VERIFIER_nondet_int()) {
            struct slave *s = malloc(sizeof *s);
            if (!s) abort();
            s->id = 1; s->next = m->slaves; m->slaves = s;
        }
        add(&m->link, &masters);
    }
    while (masters.next != &masters) {
        struct master *m = container_of(masters.next, struct master, link);
        while (m->slaves) { struct slave *t = m->slaves->next; free(m->slaves); m->slaves = t; }
        del(&m->link);
        free(m);
    }
    return 0;
}
