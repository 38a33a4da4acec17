// check: unreach-call,valid-memsafety
// expect: TRUE
// Why: a sorted list is built by prepending values capped by the head's (line 18), then every cell holding a key is unlinked (line 37), which keeps the order by transitivity through the removed cell; the order is checked at the end (line 46).
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
extern void free(void *);
void reach_error(void) { abort(); }

struct node { struct node *next; int data; };

int main(void) {
    struct node *head = 0;
    /* build a sorted list: prepend values that never exceed the head's */
    while (__VERIFIER_nondet_int()) {
        int x = __VERIFIER_nondet_int();
        if (head != 0 && x > head->data)
            x = head->data; /* OK: never above the head */
        struct node *n = malloc(sizeof(struct node));
        if (!n) abort();
        n->data = x;
        n->next = head;
        head = n;
    }
    /* remove every node holding key k */
    int k = __VERIFIER_nondet_int();
    while (head != 0 && head->data == k) {
        struct node *t = head->next;
        free(head);
        head = t;
    }
    if (head != 0) {
        struct node *p = head;
        while (p->next != 0) {
            if (p->next->data == k) {
                struct node *t = p->next;
                p->next = t->next;
                free(t);
            } else {
                p = p->next;
            }
        }
    }
    for (struct node *p = head; p != 0 && p->next != 0; p = p->next)
        if (!(p->data <= p->next->data))
            reach_error();
    while (head) {
        struct node *t = head->next;
        free(head);
        head = t;
    }
    return 0;
}
