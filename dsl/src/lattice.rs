//! The lattice of shape-class generators a checked spec defines: for each structure, the
//! subsets of its families closed under `requires` (the finest is all of them, the coarsest
//! none); `m0` below everything; refinement edges between structures. Also the shape class
//! `m(D)` a generator produces for a tracking definition `D` and a binding of roles to fields.

use crate::ir::*;
use std::collections::BTreeSet;

/// The generators of structure `s`, coarsest first (by number of families, then by indices).
pub fn generators(spec: &Spec, s: StructId) -> Vec<Generator> {
    let st = &spec.structures[s.0];
    let n = st.families.len().min(16);
    let mut out: Vec<Generator> = (0u32..(1 << n))
        .map(|mask| {
            (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .collect::<BTreeSet<usize>>()
        })
        .filter(|set| {
            set.iter()
                .all(|f| st.families[*f].requires.iter().all(|r| set.contains(r)))
        })
        .map(|families| Generator {
            structure: s,
            families,
        })
        .collect();
    out.sort_by_key(|g| {
        (
            g.families.len(),
            g.families.iter().copied().collect::<Vec<_>>(),
        )
    });
    out
}

/// The finest generator of structure `s` (all its families).
pub fn finest(spec: &Spec, s: StructId) -> Generator {
    Generator {
        structure: s,
        families: (0..spec.structures[s.0].families.len()).collect(),
    }
}

/// The shape class `m(D)` of generator `g` with the structure's roles bound to `fields`.
pub fn shape_class(spec: &Spec, g: &Generator, fields: &[String], d: &Tracking) -> ShapeClass {
    let st = &spec.structures[g.structure.0];
    let mut c = ShapeClass::default();
    c.core.insert(PredInstance::Summary);
    for x in &d.tracked {
        c.core.insert(PredInstance::PointsTo(x.clone()));
    }
    for x in &d.separating {
        c.abs.insert(PredInstance::PointsTo(x.clone()));
    }
    for a in &d.assertions {
        c.core.insert(PredInstance::FieldAssertion(a.clone()));
    }
    for f in fields {
        c.core.insert(PredInstance::Field(f.clone()));
    }
    for &fi in &g.families {
        let fam = &st.families[fi];
        for u in &fam.preds {
            for inst in instances(spec, u, fields, d) {
                let separating = matches!(&inst, PredInstance::Instr { pointer: Some(x), .. } if d.separating.contains(x));
                if fam.abstraction || separating {
                    c.abs.insert(inst.clone());
                }
                c.instr.insert(inst);
            }
        }
    }
    c
}

/// The instances of a predicate use: one per tracked pointer for pointer-indexed predicates.
fn instances(spec: &Spec, u: &PredUse, fields: &[String], d: &Tracking) -> Vec<PredInstance> {
    let p = &spec.predicates[u.pred.0];
    let bound: Vec<String> = u
        .roles
        .iter()
        .map(|r| fields.get(*r).cloned().unwrap_or_default())
        .collect();
    let mk = |pointer: Option<String>| PredInstance::Instr {
        name: p.name.clone(),
        fields: bound.clone(),
        pointer,
    };
    match p.pointer {
        Some(_) => d.tracked.iter().map(|x| mk(Some(x.clone()))).collect(),
        None => vec![mk(None)],
    }
}

/// A tracking definition that exercises every kind of predicate (one separating pointer and
/// one field assertion): generators are compared on it, which is exact because every
/// generator is monotone in `D` by construction of the language.
pub fn probe_tracking() -> Tracking {
    Tracking {
        tracked: ["x".to_string()].into(),
        separating: ["x".to_string()].into(),
        assertions: ["data == 0".to_string()].into(),
    }
}

/// The predicates of the coarser structure's finest generator (roles mapped through `r`)
/// that the finer structure's finest generator lacks; empty when the refinement holds.
pub fn not_refined(spec: &Spec, finer: StructId, r: &Refinement) -> Vec<String> {
    let fine_roles = role_fields(&spec.structures[finer.0].roles);
    let coarse_roles: Vec<String> = r.roles.iter().map(|i| fine_roles[*i].clone()).collect();
    let d = probe_tracking();
    let fine = shape_class(spec, &finest(spec, finer), &fine_roles, &d);
    let coarse = shape_class(spec, &finest(spec, r.coarser), &coarse_roles, &d);
    coarse.instr.difference(&fine.instr).map(describe).collect()
}

fn role_fields(roles: &[String]) -> Vec<String> {
    roles.to_vec()
}

/// `g ⊑ h`: `g` refines `h` (for every tracking definition) under the given bindings.
pub fn refines(
    spec: &Spec,
    g: &Generator,
    g_fields: &[String],
    h: &Generator,
    h_fields: &[String],
) -> bool {
    let d = probe_tracking();
    shape_class(spec, g, g_fields, &d).refines(&shape_class(spec, h, h_fields, &d))
}

/// Text of a predicate instance: `reach[next]<x>`, `pt[x]`, `sm`.
pub fn describe(p: &PredInstance) -> String {
    match p {
        PredInstance::Summary => "sm".into(),
        PredInstance::PointsTo(x) => format!("pt[{x}]"),
        PredInstance::FieldAssertion(a) => format!("fd[{a}]"),
        PredInstance::Field(f) => f.clone(),
        PredInstance::Instr {
            name,
            fields,
            pointer,
        } => {
            let ptr = pointer
                .as_ref()
                .map(|x| format!("<{x}>"))
                .unwrap_or_default();
            format!("{name}[{}]{ptr}", fields.join(", "))
        }
    }
}
