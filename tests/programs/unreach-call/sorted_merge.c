// check: unreach-call
// expect: TRUE
// timeout: 180
// Why: two lists built sorted are merged (line 36) and the result is checked to be sorted (line 50): tail's value stays at most both cursors' values, and a cursor advancing along a sorted list keeps that (the shape analysis alone takes about 14 s; the portfolio gives it its share after the explicit and template engines).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void) { abort(); }

struct node { struct node *next; int data; };

struct node *build(void) {
    struct node *head = 0;
    while (__VERIFIER_nondet_int()) {
        int x = __VERIFIER_nondet_int();
        if (head != 0 && x > head->data)
            x = head->data;
        struct node *n = malloc(sizeof(struct node));
        if (!n) abort();
        n->data = x;
        n->next = head;
        head = n;
    }
    return head;
}

struct node *merge(struct node *a, struct node *b) {
    struct node *head, *tail;
    if (a == 0) return b;
    if (b == 0) return a;
    if (a->data <= b->data) { head = a; a = a->next; }
    else { head = b; b = b->next; }
    tail = head;
    while (a != 0 && b != 0) {
        if (a->data <= b->data) { tail->next = a; tail = a; a = a->next; } /* OK: the smaller head goes first */
        else { tail->next = b; tail = b; b = b->next; }
    }
    if (a != 0) tail->next = a;
    else tail->next = b;
    return head;
}

int main(void) {
    struct node *a = build();
    struct node *b = build();
    struct node *m = merge(a, b);
    for (struct node *p = m; p != 0 && p->next != 0; p = p->next)
        if (p->data > p->next->data)
            reach_error();
    while (m) {
        struct node *t = m->next;
        free(m);
        m = t;
    }
    return 0;
}
