//! The lattice of shape-class generators a checked spec defines: for each structure, the
//! subsets of its families closed under `requires` (the finest is all of them, the coarsest
//! none); in the refinement order `⊑` finer generators are below coarser ones, and `m0` (no
//! predicates at all) is above everything; refinement edges between structures. Also the
//! shape class `m(D)` a generator produces for a tracking definition `D` and a binding of roles
//! to fields.

use crate::ir::*;
use std::collections::BTreeSet;

/// The most families a structure may have: its generators are enumerated as subsets of them
/// (the checks reject structures with more).
pub const MAX_FAMILIES: usize = 16;

/// The generators of structure `s`, coarsest first (by number of families, then by indices).
pub fn generators(spec: &Spec, s: StructId) -> Vec<Generator> {
    let st = &spec.structures[s.0];
    let n = st.families.len().min(MAX_FAMILIES);
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

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = "
        predicate reach[f]<x>(v) := exists u. x(u) && f*(u, v);
        predicate cyclic[f](v) := f+(v, v);
        predicate cancel[f, b](v) := forall w. f(v, w) -> b(w, v);
        structure sll[f] {
          family reachability = reach[f];
          family cyclicity = cyclic[f] requires reachability;
        }
        structure dll[f, b] refines sll[f] {
          family reachability = reach[f], reach[b];
          family cyclicity = cyclic[f] requires reachability;
          family cancellation = cancel[f, b];
          abstract cancellation;
        }
        structure none[f] { }
    ";

    fn spec() -> Spec {
        crate::load(SPEC).expect("checks")
    }

    fn fams(g: &Generator) -> Vec<usize> {
        g.families.iter().copied().collect()
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn described(set: &BTreeSet<PredInstance>) -> Vec<String> {
        set.iter().map(describe).collect()
    }

    #[test]
    fn generators_are_requires_closed_and_coarsest_first() {
        let spec = spec();
        let sll: Vec<Vec<usize>> = generators(&spec, StructId(0)).iter().map(fams).collect();
        assert_eq!(sll, [vec![], vec![0], vec![0, 1]]);
        let dll: Vec<Vec<usize>> = generators(&spec, StructId(1)).iter().map(fams).collect();
        assert_eq!(
            dll,
            [
                vec![],
                vec![0],
                vec![2],
                vec![0, 1],
                vec![0, 2],
                vec![0, 1, 2]
            ]
        );
        assert_eq!(fams(&finest(&spec, StructId(1))), [0, 1, 2]);
        // A structure without families has one generator, which is also its finest.
        assert_eq!(generators(&spec, StructId(2)), [finest(&spec, StructId(2))]);
    }

    #[test]
    fn shape_class_of_a_generator() {
        let spec = spec();
        let d = Tracking {
            tracked: ["x".to_string(), "y".to_string()].into(),
            separating: ["y".to_string()].into(),
            assertions: ["data == 0".to_string()].into(),
        };
        let g = finest(&spec, StructId(1));
        let c = shape_class(&spec, &g, &strings(&["next", "prev"]), &d);
        assert_eq!(
            described(&c.core),
            ["sm", "pt[x]", "pt[y]", "fd[data == 0]", "next", "prev"]
        );
        assert_eq!(
            described(&c.instr),
            [
                "cancel[next, prev]",
                "cyclic[next]",
                "reach[next]<x>",
                "reach[next]<y>",
                "reach[prev]<x>",
                "reach[prev]<y>",
            ]
        );
        // Abstraction predicates: separating pointers, their instances, `abstract` families.
        assert_eq!(
            described(&c.abs),
            [
                "pt[y]",
                "cancel[next, prev]",
                "reach[next]<y>",
                "reach[prev]<y>"
            ]
        );
        assert_eq!(c.size(), 12);
        // The coarsest generator has only the core predicates.
        let top = &generators(&spec, StructId(1))[0];
        let c0 = shape_class(&spec, top, &strings(&["next", "prev"]), &d);
        assert!(c0.instr.is_empty());
        assert_eq!(c0.core, c.core);
    }

    #[test]
    fn shape_classes_are_monotone_in_the_tracking_definition() {
        let spec = spec();
        let small = Tracking::default();
        let big = probe_tracking();
        let fields = strings(&["n", "p"]);
        for g in generators(&spec, StructId(1)) {
            let fine = shape_class(&spec, &g, &fields, &big);
            let coarse = shape_class(&spec, &g, &fields, &small);
            assert!(fine.refines(&coarse), "{g:?}");
        }
    }

    #[test]
    fn refinement_with_roles_mapped() {
        let spec = spec();
        let (sll, dll) = (finest(&spec, StructId(0)), finest(&spec, StructId(1)));
        let fb = strings(&["f", "b"]);
        assert!(refines(&spec, &dll, &fb, &sll, &strings(&["f"])));
        assert!(!refines(&spec, &dll, &fb, &sll, &strings(&["g"])));
        let r = &spec.structures[1].refines[0];
        assert_eq!(not_refined(&spec, StructId(1), r), Vec::<String>::new());
        // Mapped the other way round, sll's predicates over `b` are missing.
        let flipped = Refinement {
            coarser: StructId(0),
            roles: vec![1],
        };
        assert_eq!(not_refined(&spec, StructId(1), &flipped), ["cyclic[b]"]);
    }

    #[test]
    fn describe_every_kind_of_predicate() {
        let instr = PredInstance::Instr {
            name: "cancel".into(),
            fields: strings(&["n", "p"]),
            pointer: None,
        };
        assert_eq!(describe(&instr), "cancel[n, p]");
        assert_eq!(describe(&PredInstance::Summary), "sm");
        assert_eq!(describe(&PredInstance::PointsTo("x".into())), "pt[x]");
        assert_eq!(describe(&PredInstance::Field("next".into())), "next");
        assert_eq!(
            describe(&PredInstance::FieldAssertion("d == 0".into())),
            "fd[d == 0]"
        );
    }
}
