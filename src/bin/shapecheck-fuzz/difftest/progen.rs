//! The program generator: a seed in, a small SV-COMP-style C program out, with its label
//! (correct by construction, or the bug injected). Programs build singly or doubly linked
//! lists or binary trees in nondeterministic loops (or bounded ones), run a random sequence of
//! operations (insert, remove, reverse, filter, splice, traversals with assertions on data,
//! lengths and back links) and free everything; a buggy program has one of [`BUGS`] injected,
//! often behind a nondeterministic condition. Data stays in 0..=2 and every field is written
//! before it is read, so no run depends on the data model or reads uninitialised memory.
//! A third of the programs keep `main`'s head, tail and length in a holder struct (on the
//! stack, in a global or on the heap), which the front end splits into variables.

use crate::rng::Rng;

/// The bugs a program may get.
pub const BUGS: [&str; 14] = [
    "free-in-build",
    "wrong-assert",
    "length-assert",
    "use-after-free-teardown",
    "double-free",
    "leak-remove-head",
    "no-teardown",
    "global-no-teardown",
    "missing-null-check",
    "dangling-read",
    "broken-back-link",
    "teardown-off-by-one",
    "free-middle",
    "null-deref-empty",
];

/// A generated program.
pub struct Program {
    /// The C text.
    pub text: String,
    /// `correct` or the injected bug's name.
    pub label: &'static str,
}

/// Where `main` keeps `h`, `tl` and `len`.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Holding {
    /// Plain locals.
    Locals,
    /// Fields of a local `struct holder H`.
    Stack,
    /// Fields of a global `struct holder G`.
    Global,
    /// Fields of a `struct holder` on the heap, `hp`, freed before `main` returns.
    Heap,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Shape {
    Sll,
    Dll,
    Tree,
    Csll,
}

/// Lines of C with indentation.
struct Code {
    lines: Vec<String>,
    depth: usize,
}

impl Code {
    fn line(&mut self, s: &str) {
        self.lines.push(format!("{}{s}", "  ".repeat(self.depth)));
    }
    fn open(&mut self, s: &str) {
        self.line(s);
        self.depth += 1;
    }
    fn close(&mut self) {
        self.depth -= 1;
        self.line("}");
    }
}

/// Makes program number `index` of a run seeded with `seed`.
pub fn program(seed: u64, index: u64) -> Program {
    let mut rng = Rng::new(seed.wrapping_mul(0x1000_0000_01b3) ^ index);
    let shape = *rng.pick(&[
        Shape::Sll,
        Shape::Sll,
        Shape::Dll,
        Shape::Dll,
        Shape::Tree,
        Shape::Csll,
    ]);
    let use_funcs = rng.chance(1, 3) && matches!(shape, Shape::Sll | Shape::Dll);
    let alloc = if rng.chance(1, 4) {
        "calloc(1, sizeof(struct node))"
    } else {
        "malloc(sizeof(struct node))"
    };
    let bug = if rng.chance(1, 2) {
        let fits: Vec<&'static str> = BUGS.iter().copied().filter(|b| fits(shape, b)).collect();
        Some(*rng.pick(&fits))
    } else {
        None
    };
    let mut g = Gen {
        rng,
        shape,
        bug,
        used_bug: false,
        use_funcs,
        alloc,
        funcs: vec![],
        code: Code {
            lines: vec![],
            depth: 1,
        },
    };
    // A separate stream, so that the programs of a seed keep their operations.
    let mut hold = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index);
    let holding = if hold.chance(1, 3) {
        *hold.pick(&[Holding::Stack, Holding::Global, Holding::Heap])
    } else {
        Holding::Locals
    };
    let body = g.main_body(holding);
    let label = if g.used_bug {
        bug.unwrap_or("correct")
    } else {
        "correct"
    };
    Program {
        text: g.header(seed, index, label, holding) + &body,
        label,
    }
}

/// `line` with the identifiers `h`, `tl` and `len` prefixed by `base` (`H.`, `hp->`).
fn held(line: &str, base: &str) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if matches!(word.as_str(), "h" | "tl" | "len") {
            out.push_str(base);
        }
        out.push_str(word);
        word.clear();
    };
    let mut prev = ' ';
    for ch in line.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            // A field name after `.` or `->` is not a variable.
            if word.is_empty() && (prev == '.' || prev == '>') {
                word.push('#');
            }
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
        prev = ch;
    }
    flush(&mut word, &mut out);
    out.replace('#', "")
}

/// Whether a bug can be injected into a program of this shape.
fn fits(shape: Shape, bug: &str) -> bool {
    match shape {
        Shape::Tree => matches!(
            bug,
            "wrong-assert"
                | "use-after-free-teardown"
                | "double-free"
                | "no-teardown"
                | "global-no-teardown"
                | "missing-null-check"
                | "null-deref-empty"
        ),
        Shape::Csll => matches!(
            bug,
            "wrong-assert"
                | "length-assert"
                | "use-after-free-teardown"
                | "double-free"
                | "no-teardown"
                | "global-no-teardown"
                | "missing-null-check"
                | "teardown-off-by-one"
                | "free-in-build"
        ),
        Shape::Sll => bug != "broken-back-link",
        Shape::Dll => true,
    }
}

struct Gen {
    rng: Rng,
    shape: Shape,
    bug: Option<&'static str>,
    used_bug: bool,
    /// Build, count and free through helper functions (shapecheck inlines calls).
    use_funcs: bool,
    /// The allocation expression.
    alloc: &'static str,
    /// Helper function definitions, emitted before `main`.
    funcs: Vec<String>,
    code: Code,
}

impl Gen {
    fn header(&mut self, seed: u64, index: u64, label: &str, holding: Holding) -> String {
        let mut h = format!("// shapecheck-fuzz difftest: seed {seed}, program {index}: {label}\n");
        if self.rng.chance(1, 2) {
            h.push_str("#include <stdlib.h>\n");
        } else {
            h.push_str(
                "#define NULL ((void *)0)\nextern void *malloc(unsigned long);\n\
                 extern void *calloc(unsigned long, unsigned long);\nextern void free(void *);\n",
            );
        }
        h.push_str("extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\n");
        h.push_str(match self.shape {
            Shape::Sll | Shape::Csll => "struct node {\n  int data;\n  struct node *next;\n};\n\n",
            Shape::Dll => {
                "struct node {\n  int data;\n  struct node *next;\n  struct node *prev;\n};\n\n"
            }
            Shape::Tree => {
                "struct node {\n  int data;\n  struct node *left;\n  struct node *right;\n};\n\n"
            }
        });
        h.push_str("struct node *gh;\n\n");
        if holding != Holding::Locals {
            h.push_str(
                "struct holder {\n  struct node *h;\n  struct node *tl;\n  int len;\n};\n\n",
            );
        }
        if holding == Holding::Global {
            h.push_str("struct holder G;\n\n");
        }
        for f in &self.funcs {
            h.push_str(f);
            h.push('\n');
        }
        h
    }

    /// Whether the injected bug is `name` (and marks it used).
    fn bug_is(&mut self, name: &str) -> bool {
        if self.bug == Some(name) && !self.used_bug {
            self.used_bug = true;
            true
        } else {
            false
        }
    }

    fn dll(&self) -> bool {
        self.shape == Shape::Dll
    }

    fn main_body(&mut self, holding: Holding) -> String {
        self.code.line(
            "struct node *h = NULL, *p = NULL, *t = NULL, *m = NULL, *h2 = NULL, *tl = NULL;",
        );
        self.code
            .line("int len = 0, len2 = 0, c = 0, i = 0, v = 0;");
        match self.shape {
            Shape::Tree => self.tree_program(),
            Shape::Csll => self.csll_program(),
            _ => self.list_program(),
        }
        let (base, setup, cleanup): (&str, &[&str], &[&str]) = match holding {
            Holding::Locals => ("", &[], &[]),
            Holding::Stack => ("H.", &["struct holder H;"], &[]),
            Holding::Global => ("G.", &[], &[]),
            Holding::Heap => (
                "hp->",
                &[
                    "struct holder *hp = malloc(sizeof *hp);",
                    "if (!hp) return 0;",
                ],
                &["free(hp);"],
            ),
        };
        let mut out = String::from("int main(void) {\n");
        if holding == Holding::Locals {
            self.code
                .lines
                .iter()
                .for_each(|l| out.push_str(&format!("{l}\n")));
        } else {
            out.push_str("  struct node *p = NULL, *t = NULL, *m = NULL, *h2 = NULL;\n");
            out.push_str("  int len2 = 0, c = 0, i = 0, v = 0;\n");
            for l in setup {
                out.push_str(&format!("  {l}\n"));
            }
            out.push_str(&format!(
                "  {base}h = NULL;\n  {base}tl = NULL;\n  {base}len = 0;\n"
            ));
            for l in &self.code.lines[2..] {
                out.push_str(&format!("{}\n", held(l, base)));
            }
            for l in cleanup {
                out.push_str(&format!("  {l}\n"));
            }
        }
        out.push_str("  return 0;\n}\n");
        out
    }

    // ------------------------------------------------------------------ lists

    fn list_program(&mut self) {
        self.build("h", "len");
        let ops = self.rng.below(4);
        for _ in 0..ops {
            match self.rng.below(8) {
                0 => self.insert_after_head(),
                1 => self.remove_head(),
                2 => self.reverse(),
                3 => self.filter(),
                4 => self.splice(),
                5 => self.data_check(),
                6 => self.count_check(),
                _ => self.links_check(),
            }
        }
        // A bug that has not found its place yet goes here.
        if let Some(b) = self.bug
            && !self.used_bug
        {
            match b {
                "wrong-assert" => self.data_check(),
                "length-assert" => self.count_check(),
                "double-free" | "leak-remove-head" | "dangling-read" => self.remove_head(),
                "broken-back-link" if self.dll() => {
                    self.insert_after_head();
                    self.links_check();
                }
                "free-middle" => self.free_middle(),
                "null-deref-empty" => self.null_deref_empty(),
                _ => {}
            }
        }
        if self.rng.chance(1, 2) {
            self.data_check();
        }
        self.teardown();
    }

    fn data_expr(&mut self) -> &'static str {
        const DATA: [&str; 5] = ["len % 3", "1", "v", "(len + 1) % 3", "2"];
        DATA[self.rng.below(DATA.len())]
    }

    fn build(&mut self, head: &str, len: &str) {
        let bounded = self.rng.chance(1, 3);
        let at_tail = self.rng.chance(1, 2);
        if bounded {
            let k = 1 + self.rng.below(3);
            self.code.open(&format!("for (i = 0; i < {k}; i++) {{"));
        } else {
            self.code.open("while (__VERIFIER_nondet_int()) {");
        }
        let data = self.data_expr();
        if data == "v" {
            self.code.line("v = __VERIFIER_nondet_int();");
            self.code.line("if (v < 0 || v > 2) v = 0;");
        }
        let data = data.replace("len", len);
        if self.use_funcs && !at_tail {
            self.push_helper();
            self.code.line(&format!("m = push({head}, {data});"));
            self.code.line(&format!("if (m == {head}) break;"));
            self.code.line(&format!("{head} = m;"));
        } else {
            self.code.line(&format!("m = {};", self.alloc));
            if !self.bug_is("missing-null-check") {
                self.code.line("if (!m) break;");
            }
            self.code.line(&format!("m->data = {data};"));
            if at_tail {
                self.link_at_tail(head);
            } else {
                self.code.line(&format!("m->next = {head};"));
                if self.dll() {
                    self.code.line("m->prev = NULL;");
                    self.code.line(&format!("if ({head}) {head}->prev = m;"));
                }
                self.code.line(&format!("{head} = m;"));
            }
        }
        if self.bug_is("free-in-build") {
            self.code.line(&format!(
                "if ({len} == 1 && __VERIFIER_nondet_int()) free(m);"
            ));
        }
        self.code.line(&format!("{len}++;"));
        self.code.close();
    }

    fn link_at_tail(&mut self, head: &str) {
        let tail = if head == "h" { "tl" } else { "p" };
        self.code.line("m->next = NULL;");
        if self.dll() {
            self.code.line(&format!("m->prev = {tail};"));
        }
        self.code
            .line(&format!("if (!{head}) {head} = m; else {tail}->next = m;"));
        self.code.line(&format!("{tail} = m;"));
    }

    /// Defines `push` (insertion at the front; the old head when allocation fails).
    fn push_helper(&mut self) {
        if self.funcs.iter().any(|f| f.contains("*push(")) {
            return;
        }
        let check = if self.bug_is("missing-null-check") {
            ""
        } else {
            "  if (!n) return h;\n"
        };
        let back = if self.dll() {
            "  n->prev = NULL;\n  if (h) h->prev = n;\n"
        } else {
            ""
        };
        self.funcs.push(format!(
            "static struct node *push(struct node *h, int d) {{\n  struct node *n = {};\n{check}  n->data = d;\n  n->next = h;\n{back}  return n;\n}}\n",
            self.alloc
        ));
    }

    /// Defines `length`.
    fn length_helper(&mut self) {
        if !self.funcs.iter().any(|f| f.contains(" length(")) {
            self.funcs.push(
                "static int length(struct node *h) {\n  int c = 0;\n  while (h) {\n    c++;\n    h = h->next;\n  }\n  return c;\n}\n"
                    .into(),
            );
        }
    }

    fn insert_after_head(&mut self) {
        self.code.open("if (h) {");
        self.code.line(&format!("m = {};", self.alloc));
        self.code.open("if (m) {");
        self.code.line("m->data = 0;");
        self.code.line("m->next = h->next;");
        if self.dll() {
            self.code.line("m->prev = h;");
            if !self.bug_is("broken-back-link") {
                self.code.line("if (h->next) h->next->prev = m;");
            }
        }
        self.code.line("h->next = m;");
        self.code.line("len++;");
        self.code.close();
        self.code.close();
    }

    fn remove_head(&mut self) {
        if self.bug_is("dangling-read") {
            self.code.line("p = h;");
            self.remove_head_plain();
            self.code.line("if (p && p->data == 7) reach_error();");
            return;
        }
        self.remove_head_plain();
    }

    fn remove_head_plain(&mut self) {
        self.code.open("if (h) {");
        if self.bug_is("leak-remove-head") {
            self.code.line(
                "if (__VERIFIER_nondet_int()) h = h->next; else { t = h->next; free(h); h = t; }",
            );
        } else {
            self.code.line("t = h->next;");
            self.code.line("free(h);");
            if self.bug_is("double-free") {
                self.code.line("if (len == 2) free(h);");
            }
            self.code.line("h = t;");
        }
        if self.dll() {
            self.code.line("if (h) h->prev = NULL;");
        }
        self.code.line("len--;");
        self.code.close();
    }

    fn reverse(&mut self) {
        self.code.line("p = NULL;");
        self.code.open("while (h) {");
        self.code.line("t = h->next;");
        self.code.line("h->next = p;");
        if self.dll() {
            self.code.line("h->prev = t;");
        }
        self.code.line("p = h;");
        self.code.line("h = t;");
        self.code.close();
        self.code.line("h = p;");
    }

    fn filter(&mut self) {
        let x = self.rng.below(3);
        self.code.open(&format!("while (h && h->data == {x}) {{"));
        self.code.line("t = h->next;");
        self.code.line("free(h);");
        self.code.line("h = t;");
        if self.dll() {
            self.code.line("if (h) h->prev = NULL;");
        }
        self.code.line("len--;");
        self.code.close();
        self.code.open("if (h) {");
        self.code.line("p = h;");
        self.code.open("while (p->next) {");
        self.code.open(&format!("if (p->next->data == {x}) {{"));
        self.code.line("t = p->next;");
        self.code.line("p->next = t->next;");
        if self.dll() {
            self.code.line("if (t->next) t->next->prev = p;");
        }
        self.code.line("free(t);");
        self.code.line("len--;");
        self.code.close();
        self.code.line("else p = p->next;");
        self.code.close();
        self.code.close();
    }

    fn splice(&mut self) {
        self.code.line("h2 = NULL;");
        self.code.line("p = NULL;");
        self.code.line("len2 = 0;");
        self.build("h2", "len2");
        self.code.open("if (!h) h = h2;");
        self.code.depth -= 1;
        self.code.open("else {");
        self.code.line("for (p = h; p->next; p = p->next) ;");
        self.code.line("p->next = h2;");
        if self.dll() {
            self.code.line("if (h2) h2->prev = p;");
        }
        self.code.close();
        self.code.line("len = len + len2;");
        self.code.line("h2 = NULL;");
    }

    fn data_check(&mut self) {
        let cond = if self.bug_is("wrong-assert") {
            *self.rng.pick(&[
                "p->data < 2",
                "p->data != 1",
                "p->data == 0 || p->data == 2",
            ])
        } else {
            "p->data >= 0 && p->data <= 2"
        };
        self.code.line(&format!(
            "for (p = h; p; p = p->next) if (!({cond})) reach_error();"
        ));
    }

    fn count_check(&mut self) {
        if self.use_funcs {
            self.length_helper();
            self.code.line("c = length(h);");
        } else {
            self.code.line("c = 0;");
            self.code.line("for (p = h; p; p = p->next) c++;");
        }
        if self.bug_is("length-assert") {
            let k = 1 + self.rng.below(3);
            self.code.line(&format!("if (c == {k}) reach_error();"));
        } else {
            self.code.line("if (c != len) reach_error();");
        }
    }

    fn links_check(&mut self) {
        if !self.dll() {
            return self.count_check();
        }
        self.code.line("if (h && h->prev) reach_error();");
        self.code
            .line("for (p = h; p; p = p->next) if (p->next && p->next->prev != p) reach_error();");
    }

    fn free_middle(&mut self) {
        self.bug_is("free-middle");
        self.code
            .open("if (h && h->next && __VERIFIER_nondet_int()) {");
        self.code.line("free(h->next);");
        self.code.close();
        self.data_check();
    }

    fn null_deref_empty(&mut self) {
        self.bug_is("null-deref-empty");
        self.code.line("h->data = 1;");
    }

    fn teardown(&mut self) {
        if self.bug_is("no-teardown") {
            return;
        }
        if self.bug_is("global-no-teardown") {
            self.code.line("gh = h;");
            return;
        }
        let (cond, body): (&str, &[&str]) = if self.bug_is("use-after-free-teardown") {
            ("h", &["free(h);", "h = h->next;"])
        } else if self.bug_is("teardown-off-by-one") {
            ("h && h->next", &["t = h->next;", "free(h);", "h = t;"])
        } else {
            ("h", &["t = h->next;", "free(h);", "h = t;"])
        };
        if self.use_funcs {
            let mut f = format!(
                "static void destroy(struct node *h) {{\n  struct node *t = NULL;\n  while ({cond}) {{\n"
            );
            for l in body {
                f.push_str(&format!("    {l}\n"));
            }
            f.push_str("  }\n}\n");
            self.funcs.push(f);
            self.code.line("destroy(h);");
            self.code.line("h = NULL;");
            return;
        }
        self.code.open(&format!("while ({cond}) {{"));
        for l in body {
            self.code.line(l);
        }
        self.code.close();
    }

    // ------------------------------------------------------------------ circular lists

    fn csll_program(&mut self) {
        let bounded = self.rng.chance(1, 3);
        if bounded {
            let k = 1 + self.rng.below(3);
            self.code.open(&format!("for (i = 0; i < {k}; i++) {{"));
        } else {
            self.code.open("while (__VERIFIER_nondet_int()) {");
        }
        self.code.line(&format!("m = {};", self.alloc));
        if !self.bug_is("missing-null-check") {
            self.code.line("if (!m) break;");
        }
        self.code.line("m->data = len % 3;");
        self.code
            .line("if (!h) { m->next = m; h = m; } else { m->next = h->next; h->next = m; }");
        if self.bug_is("free-in-build") {
            self.code
                .line("if (len == 1 && __VERIFIER_nondet_int()) free(m);");
        }
        self.code.line("len++;");
        self.code.close();
        for _ in 0..self.rng.below(3) {
            match self.rng.below(3) {
                0 => self.csll_check(),
                1 => self.csll_count(),
                _ => self.csll_remove(),
            }
        }
        match self.bug {
            Some("wrong-assert") => self.csll_check(),
            Some("length-assert") => self.csll_count(),
            Some("double-free") => self.csll_remove(),
            _ => {}
        }
        self.csll_teardown();
    }

    fn csll_check(&mut self) {
        let cond = if self.bug_is("wrong-assert") {
            "p->data != 2"
        } else {
            "p->data >= 0 && p->data < 3"
        };
        self.code.open("if (h) {");
        self.code.line("p = h;");
        self.code.line(&format!(
            "do {{ if (!({cond})) reach_error(); p = p->next; }} while (p != h);"
        ));
        self.code.close();
    }

    fn csll_count(&mut self) {
        self.code.line("c = 0;");
        self.code
            .line("if (h) { p = h; do { c++; p = p->next; } while (p != h); }");
        if self.bug_is("length-assert") {
            self.code.line("if (c == 2) reach_error();");
        } else {
            self.code.line("if (c != len) reach_error();");
        }
    }

    fn csll_remove(&mut self) {
        self.code.open("if (h) {");
        self.code.line("if (h->next == h) { free(h); h = NULL; }");
        self.code.open("else {");
        self.code.line("t = h->next;");
        self.code.line("h->next = t->next;");
        self.code.line("free(t);");
        if self.bug_is("double-free") {
            self.code.line("if (len == 2) free(t);");
        }
        self.code.close();
        self.code.line("len--;");
        self.code.close();
    }

    fn csll_teardown(&mut self) {
        if self.bug_is("no-teardown") {
            return;
        }
        if self.bug_is("global-no-teardown") {
            self.code.line("gh = h;");
            return;
        }
        self.code.open("if (h) {");
        if self.bug_is("use-after-free-teardown") {
            self.code.line("free(h);");
        }
        self.code.line("p = h->next;");
        self.code
            .line("while (p != h) { t = p->next; free(p); p = t; }");
        if !self.bug_is("teardown-off-by-one") && self.bug != Some("use-after-free-teardown") {
            self.code.line("free(h);");
        }
        self.code.line("h = NULL;");
        self.code.close();
    }

    // ------------------------------------------------------------------ trees

    fn tree_program(&mut self) {
        let bounded = self.rng.chance(1, 3);
        if bounded {
            let k = 1 + self.rng.below(3);
            self.code.open(&format!("for (i = 0; i < {k}; i++) {{"));
        } else {
            self.code.open("while (__VERIFIER_nondet_int()) {");
        }
        self.code.line(&format!("m = {};", self.alloc));
        if !self.bug_is("missing-null-check") {
            self.code.line("if (!m) break;");
        }
        self.code.line("m->left = NULL;");
        self.code.line("m->right = NULL;");
        self.code.line("m->data = len % 3;");
        self.code.line("len++;");
        self.code.open("if (!h) h = m;");
        self.code.depth -= 1;
        self.code.open("else {");
        self.code.line("p = h;");
        self.code.open("while (1) {");
        self.code.open("if (__VERIFIER_nondet_int()) {");
        self.code.line("if (!p->left) { p->left = m; break; }");
        self.code.line("p = p->left;");
        self.code.close();
        self.code.open("else {");
        self.code.line("if (!p->right) { p->right = m; break; }");
        self.code.line("p = p->right;");
        self.code.close();
        self.code.close();
        self.code.close();
        self.code.close();
        if self.bug_is("null-deref-empty") {
            self.code.line("h->data = 1;");
        }
        if self.rng.chance(2, 3) || self.bug == Some("wrong-assert") {
            self.tree_check();
        }
        self.tree_teardown();
    }

    fn tree_check(&mut self) {
        let cond = if self.bug_is("wrong-assert") {
            "p->data != 2"
        } else {
            "p->data >= 0 && p->data < 3"
        };
        self.code.line("p = h;");
        self.code.open("while (p) {");
        self.code.line(&format!("if (!({cond})) reach_error();"));
        self.code
            .line("if (__VERIFIER_nondet_int()) p = p->left; else p = p->right;");
        self.code.close();
    }

    fn tree_teardown(&mut self) {
        if self.bug_is("no-teardown") {
            return;
        }
        if self.bug_is("global-no-teardown") {
            self.code.line("gh = h;");
            return;
        }
        let unlink = !self.bug_is("use-after-free-teardown");
        let dfree = self.bug_is("double-free");
        self.code.open("while (h) {");
        self.code.line("p = h;");
        self.code.line("t = NULL;");
        self.code.open("while (p->left || p->right) {");
        self.code.line("t = p;");
        self.code.line("p = p->left ? p->left : p->right;");
        self.code.close();
        if unlink {
            self.code.line(
                "if (!t) h = NULL; else if (t->left == p) t->left = NULL; else t->right = NULL;",
            );
        } else {
            self.code
                .line("if (!t) h = NULL; else if (t->left == p) t->left = NULL;");
        }
        self.code.line("free(p);");
        if dfree {
            self.code.line("if (__VERIFIER_nondet_int()) free(p);");
        }
        self.code.close();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn same_seed_same_program_and_both_labels_appear() {
        assert_eq!(super::program(3, 7).text, super::program(3, 7).text);
        let labels: Vec<_> = (0..40).map(|i| super::program(1, i).label).collect();
        assert!(labels.contains(&"correct"));
        assert!(labels.iter().any(|l| *l != "correct"));
    }

    #[test]
    fn held_variables_become_fields_and_fields_stay() {
        assert_eq!(
            super::held("  h->next = tl; len++; t->h = h2; h = t->len;", "hp->"),
            "  hp->h->next = hp->tl; hp->len++; t->h = h2; hp->h = t->len;"
        );
        let texts: Vec<String> = (0..30).map(|i| super::program(5, i).text).collect();
        for (marker, mode) in [
            ("struct holder H;", "stack"),
            ("struct holder G;", "global"),
            ("free(hp);", "heap"),
        ] {
            assert!(
                texts.iter().any(|t| t.contains(marker)),
                "some program holds its list on the {mode}"
            );
        }
    }
}
