//! SCGsFromExplicit (seed 000, Algorithm 2): which data structure each recursive struct type
//! of a program builds, decided on explicit-heap samples.
//!
//! Consumes the samples of one type (`crate::explicit::sample`) and a [`Domain`]; produces a
//! [`TypeReport`]: every structure of the domain whose invariants all hold on every sample,
//! for each injective binding of the type's self-pointer fields to the structure's roles, with
//! the refinement-minimal (finest) ones marked, and the rejected bindings with the invariant
//! that failed. The invariants are evaluated by the domain (compiled code or the interpreter).

use super::lazy::Binding;
use crate::engine::domain::Domain;
use crate::explicit::sample::{Sample, TypeSamples};
use shapecheck_dsl::eval::ExplicitHeap;
use shapecheck_dsl::ir::{InvId, InvUse, Spec, StructId};

/// A binding whose invariants failed: the invariant instance and the sample (0-based, among
/// the samples used).
pub struct Rejection {
    /// The binding.
    pub binding: Binding,
    /// The invariant instance that failed, e.g. `acyclic[next]`.
    pub invariant: String,
    /// The sample it failed on.
    pub sample: usize,
}

/// The classification of one recursive type.
pub struct TypeReport {
    /// Enabled bindings with whether each is finest, finest first.
    pub enabled: Vec<(Binding, bool)>,
    /// Rejected bindings.
    pub rejected: Vec<Rejection>,
    /// Structures with more roles than the type has self-pointer fields.
    pub unbindable: Vec<StructId>,
}

/// Evaluates every structure of the domain under every binding on the samples of one type.
pub fn classify(domain: &dyn Domain, ts: &TypeSamples) -> TypeReport {
    let spec = domain.spec();
    let mut r = TypeReport {
        enabled: vec![],
        rejected: vec![],
        unbindable: vec![],
    };
    let used = ts.used();
    if used.is_empty() {
        return r;
    }
    let heaps: Vec<ExplicitHeap> = used.iter().map(|s| heap(ts, s)).collect();
    let holds = |inv: InvId, fields: &[String], sample: usize| {
        let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
        domain.invariant(inv, &heaps[sample], &fields)
    };
    let names: Vec<String> = ts.ty.fields.iter().map(|f| f.name.clone()).collect();
    let mut enabled = vec![];
    for (i, st) in spec.structures.iter().enumerate() {
        let structure = StructId(i);
        if st.roles.len() > names.len() {
            r.unbindable.push(structure);
            continue;
        }
        for a in assignments(names.len(), st.roles.len()) {
            let fields = a.iter().map(|f| names[*f].clone()).collect();
            let binding = Binding { structure, fields };
            match first_failure(spec, &holds, heaps.len(), &st.invariants, &binding.fields) {
                None => enabled.push(binding),
                Some((invariant, sample)) => r.rejected.push(Rejection {
                    binding,
                    invariant,
                    sample,
                }),
            }
        }
    }
    r.enabled = mark_finest(spec, enabled);
    r
}

/// The explicit heap of a sample, with the root pointer named after its variable.
pub fn heap(ts: &TypeSamples, s: &Sample) -> ExplicitHeap {
    let edges = s
        .shape
        .edge_list()
        .map(|(n, i, t)| ((n, ts.ty.fields[i].name.clone()), t))
        .collect();
    ExplicitHeap {
        nodes: s.shape.nodes(),
        edges,
        pointers: [(s.root.clone(), 0)].into(),
    }
}

/// The injective maps from `roles` roles to `n` fields, as field indices by role, in
/// lexicographic order.
pub fn assignments(n: usize, roles: usize) -> Vec<Vec<usize>> {
    let mut out = vec![];
    let mut cur = vec![];
    extend(n, roles, &mut cur, &mut out);
    out
}

fn extend(n: usize, roles: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if cur.len() == roles {
        out.push(cur.clone());
        return;
    }
    for f in 0..n {
        if !cur.contains(&f) {
            cur.push(f);
            extend(n, roles, cur, out);
            cur.pop();
        }
    }
}

/// The first invariant instance that is not true on some sample, with that sample.
fn first_failure(
    spec: &Spec,
    holds: &dyn Fn(InvId, &[String], usize) -> bool,
    samples: usize,
    invs: &[InvUse],
    fields: &[String],
) -> Option<(String, usize)> {
    for u in invs {
        let bound: Vec<String> = u.roles.iter().map(|r| fields[*r].clone()).collect();
        for i in 0..samples {
            if !holds(u.inv, &bound, i) {
                let name = &spec.invariants[u.inv.0].name;
                return Some((format!("{name}[{}]", bound.join(", ")), i));
            }
        }
    }
    None
}

/// Whether `a` is strictly finer than `b` through the spec's refinement edges (transitively).
pub fn finer(spec: &Spec, a: &Binding, b: &Binding, depth: usize) -> bool {
    if depth > spec.structures.len() {
        return false;
    }
    spec.structures[a.structure.0].refines.iter().any(|r| {
        let coarser = Binding {
            structure: r.coarser,
            fields: r.roles.iter().map(|i| a.fields[*i].clone()).collect(),
        };
        coarser == *b || finer(spec, &coarser, b, depth + 1)
    })
}

/// The enabled bindings with a flag telling whether no other enabled binding is finer; finest
/// first, otherwise in spec and field order.
fn mark_finest(spec: &Spec, enabled: Vec<Binding>) -> Vec<(Binding, bool)> {
    let flags: Vec<bool> = enabled
        .iter()
        .map(|b| !enabled.iter().any(|o| finer(spec, o, b, 0)))
        .collect();
    let mut out: Vec<(Binding, bool)> = enabled.into_iter().zip(flags).collect();
    out.sort_by_key(|(_, fine)| !fine);
    out
}

/// The best picks: for each structure among the finest bindings that use the most fields, its
/// first binding (fields in declaration order first).
pub fn best(r: &TypeReport) -> Vec<&Binding> {
    let finest = r.enabled.iter().filter(|(_, f)| *f).map(|(b, _)| b);
    let most = finest.clone().map(|b| b.fields.len()).max().unwrap_or(0);
    let mut out: Vec<&Binding> = vec![];
    for b in finest.filter(|b| b.fields.len() == most) {
        if !out.iter().any(|o| o.structure == b.structure) {
            out.push(b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assignments_are_injective_and_ordered() {
        assert_eq!(assignments(2, 2), vec![vec![0, 1], vec![1, 0]]);
        assert_eq!(assignments(3, 2).len(), 6);
        assert_eq!(assignments(1, 2).len(), 0);
        assert_eq!(assignments(3, 0), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn dll_is_finer_than_sll_and_treep_than_tree() {
        let spec = shapecheck_library::spec().clone();
        let id = |n: &str| StructId(spec.structures.iter().position(|s| s.name == n).unwrap());
        let b = |s: &str, f: &[&str]| Binding {
            structure: id(s),
            fields: f.iter().map(|x| x.to_string()).collect(),
        };
        assert!(finer(&spec, &b("dll", &["n", "p"]), &b("sll", &["n"]), 0));
        assert!(!finer(&spec, &b("dll", &["n", "p"]), &b("sll", &["p"]), 0));
        assert!(finer(
            &spec,
            &b("treep", &["l", "r", "p"]),
            &b("tree", &["l", "r"]),
            0
        ));
        assert!(!finer(&spec, &b("sll", &["n"]), &b("dll", &["n", "p"]), 0));
    }
}
