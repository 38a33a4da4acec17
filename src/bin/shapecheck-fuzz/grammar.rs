//! Grammar-aware generators: random but mostly well-formed C programs (struct types,
//! globals, functions with nested statements and expressions of every C operator, casts,
//! heap calls, gotos, switches) and random `.shape` specs (predicates, invariants,
//! structures with families and refinements, formulas with quantifiers and closures). Their
//! nesting depth is bounded, so they exercise the parsers' breadth; the `deep-nesting` mutator
//! covers depth.

use crate::rng::Rng;

/// A random C translation unit.
pub fn c_program(rng: &mut Rng) -> String {
    let mut out = String::from(
        "typedef unsigned long size_t;\nextern void *malloc(size_t);\nextern void free(void *);\n\
         extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n",
    );
    for i in 0..1 + rng.below(3) {
        out.push_str(&format!(
            "struct s{i} {{ int data; struct s{i} *next; struct s{i} *prev; {} }};\n",
            if rng.chance(1, 3) {
                "char tag[4]; long v : 3;"
            } else {
                ""
            }
        ));
    }
    if rng.chance(1, 2) {
        out.push_str("int g; struct s0 *head; int arr[8];\n");
    }
    for f in 0..rng.below(3) {
        let body = block(rng, 3);
        out.push_str(&format!("static int f{f}(int a, struct s0 *p) {body}\n"));
    }
    out.push_str(&format!("int main(void) {}\n", block(rng, 4)));
    out
}

const VARS: [&str; 8] = [
    "x",
    "y",
    "a",
    "g",
    "p->data",
    "arr[1]",
    "(*p).data",
    "q->next->data",
];
const PTRS: [&str; 6] = ["p", "q", "head", "p->next", "q->prev", "(struct s0 *)0"];

fn block(rng: &mut Rng, depth: u32) -> String {
    let mut s = String::from("{\n int x = 0, y = 1; struct s0 *p = 0, *q = 0;\n");
    for _ in 0..1 + rng.below(6) {
        s.push_str(&stmt(rng, depth));
    }
    s.push_str(" return 0;\n}");
    s
}

fn stmt(rng: &mut Rng, depth: u32) -> String {
    let d = depth.saturating_sub(1);
    let nested = depth > 0;
    match rng.below(if nested { 14 } else { 7 }) {
        0 => format!(" {} = {};\n", rng.pick(&VARS), expr(rng, 3)),
        1 => format!(" {} = malloc(sizeof(struct s0));\n", rng.pick(&PTRS[..4])),
        2 => format!(" free({});\n", rng.pick(&PTRS)),
        3 => format!(" {} = {};\n", rng.pick(&PTRS[..5]), rng.pick(&PTRS)),
        4 => format!(" if (!({})) reach_error();\n", expr(rng, 2)),
        5 => " x = __VERIFIER_nondet_int();\n".into(),
        6 => format!(" {}++;\n", rng.pick(&VARS)),
        7 => format!(
            " if ({}) {} else {}\n",
            expr(rng, 2),
            block(rng, d),
            block(rng, d)
        ),
        8 => format!(" while (__VERIFIER_nondet_int()) {}\n", block(rng, d)),
        9 => format!(
            " for (x = 0; x < {}; x++) {}\n",
            rng.below(5),
            block(rng, d)
        ),
        10 => format!(
            " switch ({}) {{ case 0: {} case 1: break; default: {} }}\n",
            expr(rng, 1),
            stmt(rng, d),
            stmt(rng, d)
        ),
        11 => format!(" goto l{0}; l{0}: ;\n", rng.below(1000)),
        12 => format!(" do {} while (0);\n", block(rng, d)),
        _ => format!(" {{ int z = {}; x = z; }}\n", expr(rng, 2)),
    }
}

fn expr(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.chance(1, 3) {
        return match rng.below(5) {
            0 => rng.pick(&VARS).to_string(),
            1 => rng.range(-3, 300).to_string(),
            2 => rng
                .pick(&["0x10", "'a'", "1u", "2147483647", "sizeof(int)", "NULL"])
                .to_string(),
            3 => format!("({} == 0)", rng.pick(&PTRS)),
            _ => "__VERIFIER_nondet_int()".into(),
        };
    }
    let d = depth - 1;
    match rng.below(6) {
        0 => format!("({} ? {} : {})", expr(rng, d), expr(rng, d), expr(rng, d)),
        1 => format!(
            "{}({})",
            rng.pick(&["-", "!", "~", "(int)", "(char)", "(unsigned)"]),
            expr(rng, d)
        ),
        2 => format!("f0({}, p)", expr(rng, d)),
        3 => format!("({}, {})", expr(rng, d), expr(rng, d)),
        _ => format!(
            "({} {} {})",
            expr(rng, d),
            rng.pick(&[
                "+", "-", "*", "/", "%", "<<", ">>", "<", "<=", "==", "!=", "&", "|", "^", "&&",
                "||"
            ]),
            expr(rng, d)
        ),
    }
}

/// A random spec.
pub fn spec(rng: &mut Rng) -> String {
    let mut out = String::new();
    let mut preds = vec!["reach".to_string()];
    for i in 0..1 + rng.below(4) {
        let name = format!("p{i}");
        let roles = roles(rng);
        let ptr = if rng.chance(1, 3) { "<x>" } else { "" };
        let params = *rng.pick(&["(v)", "(v, w)", "(v, w, u)"]);
        let f = formula(rng, 4, &preds);
        out.push_str(&format!("predicate {name}{roles}{ptr}{params} := {f};\n"));
        preds.push(name);
    }
    for i in 0..rng.below(3) {
        let f = formula(rng, 3, &preds);
        out.push_str(&format!("invariant i{i}{} := {f};\n", roles(rng)));
    }
    for i in 0..rng.below(3) {
        let refines = if i > 0 && rng.chance(1, 2) {
            format!(" refines st{}[f]", i - 1)
        } else {
            String::new()
        };
        out.push_str(&format!("structure st{i}{}{refines} {{\n", roles(rng)));
        if rng.chance(2, 3) {
            out.push_str("  invariant i0[f];\n");
        }
        for k in 0..rng.below(3) {
            let req = if k > 0 { " requires fam0" } else { "" };
            out.push_str(&format!(
                "  family fam{k} = {}[f], {}[f, b]{req};\n",
                rng.pick(&preds),
                rng.pick(&preds)
            ));
        }
        if rng.chance(1, 4) {
            out.push_str("  abstract fam0;\n");
        }
        out.push_str("}\n");
    }
    out
}

fn roles(rng: &mut Rng) -> &'static str {
    const ROLES: [&str; 5] = ["[f]", "[f, b]", "[]", "[l, r]", "[f, f]"];
    ROLES[rng.below(ROLES.len())]
}

fn formula(rng: &mut Rng, depth: u32, preds: &[String]) -> String {
    const VS: [&str; 4] = ["v", "w", "u", "z"];
    if depth == 0 || rng.chance(1, 4) {
        return match rng.below(5) {
            0 => format!(
                "{}({}, {})",
                rng.pick(&["f", "b", "l"]),
                rng.pick(&VS),
                rng.pick(&VS)
            ),
            1 => format!(
                "{} {} {}",
                rng.pick(&VS),
                rng.pick(&["==", "!="]),
                rng.pick(&VS)
            ),
            2 => rng.pick(&["true", "false", "x(v)"]).to_string(),
            3 => format!(
                "{}{}({}, {})",
                rng.pick(&["f", "b"]),
                rng.pick(&["+", "*"]),
                rng.pick(&VS),
                rng.pick(&VS)
            ),
            _ => format!("{}[f]({})", rng.pick(preds), rng.pick(&VS)),
        };
    }
    let d = depth - 1;
    match rng.below(6) {
        0 => format!("!{}", formula(rng, d, preds)),
        1 => format!("({})", formula(rng, d, preds)),
        2 => format!(
            "{} w. {}",
            rng.pick(&["forall", "exists"]),
            formula(rng, d, preds)
        ),
        _ => format!(
            "{} {} {}",
            formula(rng, d, preds),
            rng.pick(&["&&", "||", "->", "<->"]),
            formula(rng, d, preds)
        ),
    }
}
