// check: valid-memsafety
// expect: TRUE
// Why: a record owns two separately allocated strings (line 22) and destroy() frees both and then the record.
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
  r->alias = malloc(8); /* OK: alias gets its own buffer */
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
