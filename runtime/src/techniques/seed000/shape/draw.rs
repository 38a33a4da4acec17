//! Draws a three-valued structure as a [`Picture`]: consumes a [`Graph`] and its vocabulary,
//! produces a box per tracked pointer (a root, with an arrow to each node it may point to)
//! and per node (a double border for a summary node, rows for the unary predicates that hold,
//! `?` after those that are 1/2), with an arrow per field predicate that is not 0 (dashed for
//! 1/2).

use super::graph::{F, Graph, H};
use super::vocab::{PredKind, Vocab};
use crate::picture::{Kind, Picture};

impl Graph {
    /// The picture of this structure under `caption`.
    pub fn picture(&self, v: &Vocab, prog: &crate::program::ir::Program, caption: &str) -> Picture {
        let mut p = Picture::new(caption);
        let nodes: Vec<usize> = (0..self.n)
            .map(|u| {
                let kind = if self.sm[u] == F {
                    Kind::Object
                } else {
                    Kind::Summary
                };
                let title = format!("n{u}: {}", type_name(prog, self.ty[u]));
                p.node(title, self.unary_rows(v, u), kind)
            })
            .collect();
        for pred in &v.preds {
            match pred.kind {
                PredKind::PointsTo(i) => self.draw_pointer(&mut p, v, i, pred.slot, &nodes),
                PredKind::Field(_) => {
                    for a in 0..self.n {
                        for b in 0..self.n {
                            let k = self.bin[pred.slot][a * self.n + b];
                            if k != F {
                                p.arrow(nodes[a], None, nodes[b], &pred.name, k == H);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        p
    }

    /// The unary predicates other than points-to that hold on node `u`.
    fn unary_rows(&self, v: &Vocab, u: usize) -> Vec<String> {
        v.preds
            .iter()
            .filter(|p| p.arity == 1 && !matches!(p.kind, PredKind::PointsTo(_)))
            .filter(|p| self.un[p.slot][u] != F)
            .map(|p| {
                let maybe = if self.un[p.slot][u] == H { "?" } else { "" };
                format!("{}{maybe}", p.name)
            })
            .collect()
    }

    /// Tracked pointer `i`'s box and its arrows.
    fn draw_pointer(&self, p: &mut Picture, v: &Vocab, i: usize, slot: usize, nodes: &[usize]) {
        let targets: Vec<usize> = (0..self.n).filter(|&u| self.un[slot][u] != F).collect();
        let value = if self.invalid[i] != F {
            "invalid"
        } else if targets.is_empty() {
            "NULL"
        } else {
            ""
        };
        let rows = if value.is_empty() {
            vec![]
        } else {
            vec![value.to_string()]
        };
        let b = p.node(v.vars[i].name.clone(), rows, Kind::Root);
        for u in targets {
            p.arrow(b, None, nodes[u], "", self.un[slot][u] == H);
        }
    }
}

/// `struct node`, or `raw block (N bytes)` for a node allocated through `void *`.
fn type_name(prog: &crate::program::ir::Program, s: crate::program::ir::StructId) -> String {
    match prog.structs.get(s.0 as usize) {
        Some(d) => d.name.clone(),
        None => match super::transfer::raw_info(s) {
            Some((size, _)) => format!("raw block ({size} bytes)"),
            None => "raw block".into(),
        },
    }
}
