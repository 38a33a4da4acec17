// check: valid-memsafety
// expect: FALSE(valid-free)
// Why: alias is made to share the name buffer (line 22), so destroy() frees the same block twice.
#include <stdlib.h>

struct record {
  int id;
  char *name;
  char *alias;
};

static struct record *make(int id) {
  struct record *r = malloc(sizeof *r);
  if (!r)
    abort();
  r->id = id;
  r->name = malloc(8);
  if (!r->name)
    abort();
  r->name[0] = 'a';
  r->name[1] = '\0';
  r->alias = r->name; /* BUG: shares the buffer that destroy() also frees */
  if (!r->alias)
    abort();
  r->alias[0] = 'b';
  r->alias[1] = '\0';
  return r;
}

static void destroy(struct record *r) {
  free(r->name);
  free(r->alias);
  free(r);
}

int main(void) {
  struct record *r = make(1);
  int ok = r->name[1] == '\0' && r->alias[1] == '\0';
  destroy(r);
  return ok ? 0 : 1;
}
