/* Seed 002 (Malik, Hruska, Schrammel, Vojnar, FMCAD 2018), Table II benchmark re-created
 * (the paper gives no source for it; this is a reconstruction from the name).
 *
 * Models: a shopping cart kept as a singly-linked list of items, each with a quantity and
 * a unit price. Items are added with 1 <= qty <= 10 and 1 <= price <= 100 (others are
 * rejected). Then the customer edits the cart any number of times: per item, add one more
 * (only below 10), remove one (only above 1) or apply a half-price discount (only above
 * 1). At checkout a walk asserts the bounds and frees the items.
 * Invariant: for every node 1 <= qty <= 10 and 1 <= price <= 100.
 *
 * Table II row: Cart.
 * Expected: TRUE (unreach-call)
 */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
#include <stdlib.h>

#define MAX_QTY 10
#define MAX_PRICE 100

typedef struct item {
  int qty;
  int price;
  struct item *next;
} Item;

int main(void) {
  Item *cart = NULL;
  Item *p;
  while (__VERIFIER_nondet_int()) {
    int qty = __VERIFIER_nondet_int();
    int price = __VERIFIER_nondet_int();
    if (qty < 1 || qty > MAX_QTY) continue;
    if (price < 1 || price > MAX_PRICE) continue;
    p = malloc(sizeof(Item));
    if (p == NULL) return 0;
    p->qty = qty;
    p->price = price;
    p->next = cart;
    cart = p;
  }
  while (__VERIFIER_nondet_int()) {
    for (p = cart; p != NULL; p = p->next) {
      int action = __VERIFIER_nondet_int();
      if (action == 1) {
        if (p->qty < MAX_QTY) p->qty++;
      } else if (action == 2) {
        if (p->qty > 1) p->qty--;
      } else if (action == 3) {
        if (p->price > 1) p->price /= 2;
      }
    }
  }
  while (cart != NULL) {
    p = cart;
    if (!(p->qty >= 1 && p->qty <= MAX_QTY)) reach_error();
    if (!(p->price >= 1 && p->price <= MAX_PRICE)) reach_error();
    cart = p->next;
    free(p);
  }
  return 0;
}
