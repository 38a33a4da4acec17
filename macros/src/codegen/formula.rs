//! A formula compiled to an expression: nested calls on a context `c`, with variable slot `i`
//! in the Rust variable `vi`. Two-valued (`Ctx2`, Booleans on explicit heaps): the fields bound
//! to the declaration's roles are names in `fields`, predicate atoms direct calls of the other
//! predicate's compiled body. Three-valued (`&dyn shapecheck_dsl::sem::Sem3`, the engine's
//! semantics): the roles are field indices in `roles`, and every atom, connective, quantifier,
//! predicate atom and closure is a call of the context, in the order the interpreter
//! (`shapecheck_dsl::sem::formula3`) makes them, so the two agree.

use super::Names;
use super::text::{lit, var};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};
use shapecheck_dsl::ir::{Formula, PredId, Rel};

/// Two-valued or three-valued evaluation.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Mode {
    /// `bool` on explicit heaps.
    Two,
    /// `Kleene` on three-valued structures.
    Three,
}

impl Mode {
    /// The value type.
    pub fn value(self) -> TokenStream {
        match self {
            Mode::Two => quote!(bool),
            Mode::Three => quote!(::shapecheck_dsl::eval::Kleene),
        }
    }

    /// The context type.
    pub fn ctx(self) -> TokenStream {
        match self {
            Mode::Two => quote!(::shapecheck_dsl::__private::Ctx2<'_>),
            Mode::Three => quote!(dyn ::shapecheck_dsl::sem::Sem3),
        }
    }

    /// The name of a declaration's compiled body in this mode.
    pub fn body(self) -> proc_macro2::Ident {
        match self {
            Mode::Two => format_ident!("body2"),
            Mode::Three => format_ident!("body3"),
        }
    }

    /// A truth value.
    pub fn constant(self, b: bool) -> TokenStream {
        match (self, b) {
            (Mode::Two, b) => quote!(#b),
            (Mode::Three, true) => quote!(::shapecheck_dsl::eval::Kleene::True),
            (Mode::Three, false) => quote!(::shapecheck_dsl::eval::Kleene::False),
        }
    }

    /// A binary connective of Kleene's logic (`and`, `or`, `implies`, `iff`).
    fn binary(self, op: &str, a: TokenStream, b: TokenStream) -> TokenStream {
        match (self, op) {
            (Mode::Two, "and") => quote!(#a && #b),
            (Mode::Two, "or") => quote!(#a || #b),
            (Mode::Two, "implies") => quote!(!#a || #b),
            (Mode::Two, _) => quote!(#a == #b),
            (Mode::Three, op) => {
                let op = format_ident!("{op}");
                quote!(#a.#op(#b))
            }
        }
    }
}

/// `f` compiled in mode `m`, as an operand: parenthesised when it is a Boolean operator.
fn operand(f: &Formula, m: Mode, names: &Names) -> TokenStream {
    let code = compile(f, m, names);
    let binary = matches!(
        f,
        Formula::And(..) | Formula::Or(..) | Formula::Implies(..) | Formula::Iff(..)
    );
    match m == Mode::Two && binary {
        true => quote!((#code)),
        false => code,
    }
}

/// `f` compiled in mode `m`, as a whole expression (a body, a closure's result).
pub fn compile(f: &Formula, m: Mode, names: &Names) -> TokenStream {
    if m == Mode::Three {
        return compile3(f, names);
    }
    let go = |g: &Formula| operand(g, m, names);
    match f {
        Formula::True => m.constant(true),
        Formula::False => m.constant(false),
        Formula::Eq(a, b) => call("eq", &[*a, *b]),
        Formula::Field(r, a, b) => {
            let (r, a, b) = (lit(*r), var(*a), var(*b));
            quote!(c.field(fields[#r], #a, #b))
        }
        Formula::Pointer(a) => call("pointer", &[*a]),
        Formula::Summary(a) => call("summary", &[*a]),
        Formula::Pred(p, roles, args) => {
            let args: Vec<TokenStream> = args.iter().map(|a| var(*a).into_token_stream()).collect();
            pred_call(*p, roles, &args, m, names)
        }
        Formula::Closure {
            rel,
            reflexive,
            from,
            to,
        } => {
            let rel = relation(rel, m, names);
            let (from, to) = (var(*from), var(*to));
            quote!(c.closure(#reflexive, #from, #to, |a, b| #rel))
        }
        Formula::Not(a) => match (m, go(a)) {
            (Mode::Two, a) => quote!(!#a),
            (Mode::Three, a) => quote!(#a.not()),
        },
        Formula::And(a, b) => m.binary("and", go(a), go(b)),
        Formula::Or(a, b) => m.binary("or", go(a), go(b)),
        Formula::Implies(a, b) => m.binary("implies", go(a), go(b)),
        Formula::Iff(a, b) => m.binary("iff", go(a), go(b)),
        Formula::Exists(v, body) => quantifier("exists", *v, body, compile(body, m, names), false),
        Formula::Forall(v, body) => quantifier("forall", *v, body, compile(body, m, names), false),
    }
}

/// `f` compiled three-valued, against `c: &dyn Sem3` and `roles: &[usize]`.
fn compile3(f: &Formula, names: &Names) -> TokenStream {
    let go = |g: &Formula| compile3(g, names);
    let kleene = quote!(::shapecheck_dsl::eval::Kleene);
    let connective = |op: &str, a: &Formula, b: &Formula| {
        let (op, a, b) = (format_ident!("{op}"), go(a), go(b));
        quote!(c.#op(&|| #a, &|| #b))
    };
    match f {
        Formula::True => quote!(#kleene::True),
        Formula::False => quote!(#kleene::False),
        Formula::Eq(a, b) => call("eq", &[*a, *b]),
        Formula::Field(r, a, b) => {
            let (r, a, b) = (lit(*r), var(*a), var(*b));
            quote!(::shapecheck_dsl::sem::role_field(c, roles, #r, #a, #b))
        }
        Formula::Pointer(a) => call("pointer", &[*a]),
        Formula::Summary(a) => call("summary", &[*a]),
        Formula::Pred(p, rs, args) => {
            let args: Vec<TokenStream> = args.iter().map(|a| var(*a).into_token_stream()).collect();
            pred3(*p, &bound(rs), &args, names)
        }
        Formula::Closure {
            rel,
            reflexive,
            from,
            to,
        } => closure3(rel, *reflexive, var(*from), var(*to), names),
        Formula::Not(a) => {
            let a = go(a);
            quote!((#a).not())
        }
        Formula::And(a, b) => connective("and", a, b),
        Formula::Or(a, b) => connective("or", a, b),
        Formula::Implies(a, b) => connective("implies", a, b),
        Formula::Iff(a, b) => connective("iff", a, b),
        Formula::Exists(v, body) => quantifier("exists", *v, body, go(body), true),
        Formula::Forall(v, body) => quantifier("forall", *v, body, go(body), true),
    }
}

/// `sem::bind(roles, &[r, ...])`: the field indices of a used predicate's roles.
fn bound(rs: &[usize]) -> TokenStream {
    let rs = rs.iter().map(|r| lit(*r));
    quote!(::shapecheck_dsl::sem::bind(roles, &[#(#rs),*]))
}

/// `c.pred(...)`: predicate `p` (roles `bound`) on `args`, its body the compiled `eval3`.
fn pred3(p: PredId, bound: &TokenStream, args: &[TokenStream], names: &Names) -> TokenStream {
    let ty = &names.preds[p.0];
    let id = lit(p.0);
    quote!(c.pred(
        ::shapecheck_dsl::ir::PredId(#id),
        &#bound,
        &[#(#args),*],
        &|r2: &[usize], a2: &[usize]| {
            <super::predicates::#ty as ::shapecheck_dsl::compiled::CompiledPredicate>::eval3(c, r2, a2)
        },
    ))
}

/// `c.closure(...)` of a field or a predicate bound to our roles, between `from` and `to`.
fn closure3(rel: &Rel, reflexive: bool, from: Ident, to: Ident, names: &Names) -> TokenStream {
    let kleene = quote!(::shapecheck_dsl::eval::Kleene);
    match rel {
        Rel::Field(r) => {
            let r = lit(*r);
            quote!(match ::shapecheck_dsl::sem::role(roles, #r) {
                ::core::option::Option::Some(f) => c.closure(
                    &::shapecheck_dsl::sem::Bound::Field(f),
                    #reflexive,
                    #from,
                    #to,
                    &|x, y| c.field(f, x, y),
                ),
                ::core::option::Option::None => #kleene::False,
            })
        }
        Rel::Pred(p, rs) => {
            let value = pred3(*p, &quote!(b), &[quote!(x), quote!(y)], names);
            let (id, rs) = (lit(p.0), bound(rs));
            quote!({
                let b = #rs;
                c.closure(
                    &::shapecheck_dsl::sem::Bound::Pred(::shapecheck_dsl::ir::PredId(#id), b.clone()),
                    #reflexive,
                    #from,
                    #to,
                    &|x, y| #value,
                )
            })
        }
    }
}

/// `c.method(v_a, ...)`.
fn call(method: &str, vars: &[usize]) -> TokenStream {
    let method = format_ident!("{method}");
    let vars = vars.iter().map(|v| var(*v));
    quote!(c.#method(#(#vars),*))
}

/// `c.exists(|vi| body)` (`c.exists(&|vi| body)` when `by_ref`), with `_` when the body does not
/// use the variable.
fn quantifier(q: &str, v: usize, body: &Formula, code: TokenStream, by_ref: bool) -> TokenStream {
    let q = format_ident!("{q}");
    let binder = if uses_var(body, v) {
        let v = var(v);
        quote!(#v)
    } else {
        quote!(_)
    };
    if by_ref {
        quote!(c.#q(&|#binder: usize| #code))
    } else {
        quote!(c.#q(|#binder| #code))
    }
}

/// The body of a `c.closure` call on nodes `a`, `b`.
fn relation(rel: &Rel, m: Mode, names: &Names) -> TokenStream {
    match rel {
        Rel::Field(r) => {
            let r = lit(*r);
            quote!(c.field(fields[#r], a, b))
        }
        Rel::Pred(p, roles) => pred_call(*p, roles, &[quote!(a), quote!(b)], m, names),
    }
}

/// A call of predicate `p`'s compiled body, its roles bound to ours.
fn pred_call(p: PredId, roles: &[usize], args: &[TokenStream], m: Mode, n: &Names) -> TokenStream {
    let ty = &n.preds[p.0];
    let body = m.body();
    let roles = roles.iter().map(|r| lit(*r));
    quote!(super::predicates::#ty::#body(c, &[#(fields[#roles]),*], #(#args),*))
}

/// What a formula mentions: the context, the role fields, its free variables.
#[derive(Default)]
pub struct Uses {
    /// Anything but constants and connectives.
    pub ctx: bool,
    /// A field, a closure or a predicate.
    pub fields: bool,
}

/// What `f` mentions.
pub fn uses(f: &Formula) -> Uses {
    let mut u = Uses::default();
    visit(f, &mut |g| match g {
        Formula::Eq(..) | Formula::Pointer(_) | Formula::Summary(_) => u.ctx = true,
        Formula::Field(..) | Formula::Pred(..) | Formula::Closure { .. } => {
            u.ctx = true;
            u.fields = true;
        }
        Formula::Exists(..) | Formula::Forall(..) => u.ctx = true,
        _ => {}
    });
    u
}

/// Whether variable `v` occurs in `f`.
pub fn uses_var(f: &Formula, v: usize) -> bool {
    let mut found = false;
    visit(f, &mut |g| {
        found |= match g {
            Formula::Eq(a, b) | Formula::Field(_, a, b) => *a == v || *b == v,
            Formula::Pointer(a) | Formula::Summary(a) => *a == v,
            Formula::Pred(_, _, args) => args.contains(&v),
            Formula::Closure { from, to, .. } => *from == v || *to == v,
            _ => false,
        }
    });
    found
}

/// Calls `see` on every subformula of `f`.
fn visit(f: &Formula, see: &mut impl FnMut(&Formula)) {
    see(f);
    match f {
        Formula::Not(a) | Formula::Exists(_, a) | Formula::Forall(_, a) => visit(a, see),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            visit(a, see);
            visit(b, see);
        }
        _ => {}
    }
}
