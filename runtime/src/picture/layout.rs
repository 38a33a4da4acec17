//! Places the boxes of a [`Picture`]: consumes its boxes and arrows, produces a rectangle per
//! box and the size of the panel.
//!
//! A layered layout in the manner of Sugiyama's: a box's column is its breadth-first distance
//! from the roots (the variables, then any box no arrow enters, then whatever is left, so
//! that a cycle no root reaches is still drawn), and a variable then moves to the column just
//! before the nearest box it points to, so that its arrow is short; within a column, boxes
//! are ordered by the mean row of the boxes that point to them (a few barycentre sweeps),
//! which keeps a list drawn as a straight line, variables below the objects. Boxes never
//! overlap: columns are as wide as their widest box.

use super::{Kind, Picture};
use std::collections::VecDeque;

/// Width of a character of the monospace font, in pixels.
pub const CHAR_W: f64 = 7.2;
/// Height of a row of text.
pub const ROW_H: f64 = 18.0;
/// Horizontal padding inside a box.
pub const PAD: f64 = 6.0;
/// Space between columns (room for the arrows).
const GAP_X: f64 = 56.0;
/// Space between boxes of a column.
const GAP_Y: f64 = 22.0;
/// Barycentre sweeps.
const SWEEPS: usize = 4;

/// A box's rectangle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Whether two rectangles share interior points.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// Where every box goes.
#[derive(Clone, Debug)]
pub struct Layout {
    /// One rectangle per box, in the picture's order.
    pub rects: Vec<Rect>,
    /// The column of every box.
    pub column: Vec<usize>,
    /// The panel's width.
    pub width: f64,
    /// The panel's height.
    pub height: f64,
}

/// Lays out `p`.
pub fn layout(p: &Picture) -> Layout {
    let column = columns(p);
    let order = order(p, &column);
    let mut rects: Vec<Rect> = p
        .boxes
        .iter()
        .map(|b| {
            let chars = b.rows.iter().chain([&b.title]).map(|r| r.chars().count());
            Rect {
                x: 0.0,
                y: 0.0,
                w: chars.max().unwrap_or(1) as f64 * CHAR_W + 2.0 * PAD,
                h: (1 + b.rows.len()) as f64 * ROW_H,
            }
        })
        .collect();
    let (mut x, mut height) = (0.0_f64, 0.0_f64);
    for col in &order {
        let w = col.iter().map(|&b| rects[b].w).fold(0.0, f64::max);
        let mut y = 0.0;
        for &b in col {
            rects[b].x = x;
            rects[b].y = y;
            y += rects[b].h + GAP_Y;
        }
        height = height.max(y - GAP_Y);
        x += w + GAP_X;
    }
    Layout {
        rects,
        column,
        width: (x - GAP_X).max(0.0),
        height: height.max(0.0),
    }
}

/// The column of every box: breadth-first distance from the seeds.
fn columns(p: &Picture) -> Vec<usize> {
    let n = p.boxes.len();
    let succ = successors(p);
    let mut entered = vec![false; n];
    for a in &p.arrows {
        if a.from != a.to {
            entered[a.to] = true;
        }
    }
    let mut column = vec![usize::MAX; n];
    let roots = (0..n).filter(|&b| p.boxes[b].kind == Kind::Root);
    let unentered = (0..n).filter(|&b| !entered[b]);
    let seeds: Vec<usize> = roots.chain(unentered).chain(0..n).collect();
    for s in seeds {
        if column[s] != usize::MAX {
            continue;
        }
        column[s] = 0;
        let mut queue = VecDeque::from([s]);
        while let Some(b) = queue.pop_front() {
            for &t in &succ[b] {
                if column[t] == usize::MAX {
                    column[t] = column[b] + 1;
                    queue.push_back(t);
                }
            }
        }
    }
    for b in (0..n).filter(|&b| p.boxes[b].kind == Kind::Root) {
        let nearest = succ[b].iter().filter(|&&t| p.boxes[t].kind != Kind::Root);
        if let Some(c) = nearest.map(|&t| column[t]).min() {
            column[b] = c.saturating_sub(1);
        }
    }
    column
}

/// The boxes of every column, top to bottom.
fn order(p: &Picture, column: &[usize]) -> Vec<Vec<usize>> {
    let cols = column.iter().max().map_or(0, |m| m + 1);
    let mut order: Vec<Vec<usize>> = vec![vec![]; cols];
    for (b, &c) in column.iter().enumerate() {
        order[c].push(b);
    }
    let mut preds: Vec<Vec<usize>> = vec![vec![]; p.boxes.len()];
    for a in &p.arrows {
        if column[a.from] < column[a.to] {
            preds[a.to].push(a.from);
        }
    }
    for _ in 0..SWEEPS {
        let mut rank = vec![0.0; p.boxes.len()];
        for col in &order {
            for (i, &b) in col.iter().enumerate() {
                rank[b] = i as f64;
            }
        }
        for col in order.iter_mut().skip(1) {
            let key = |b: &usize| {
                let ps = &preds[*b];
                if ps.is_empty() {
                    rank[*b]
                } else {
                    ps.iter().map(|q| rank[*q]).sum::<f64>() / ps.len() as f64
                }
            };
            let root = |b: &usize| p.boxes[*b].kind == Kind::Root;
            col.sort_by(|a, b| (root(a).cmp(&root(b))).then(key(a).total_cmp(&key(b))));
            for (i, &b) in col.iter().enumerate() {
                rank[b] = i as f64;
            }
        }
    }
    order
}

fn successors(p: &Picture) -> Vec<Vec<usize>> {
    let mut succ = vec![vec![]; p.boxes.len()];
    for a in &p.arrows {
        succ[a.from].push(a.to);
    }
    succ
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(n: usize) -> Picture {
        let mut p = Picture::new("list");
        let x = p.node("x", vec!["x = &b0".into()], Kind::Root);
        let mut prev = (x, 0);
        for i in 0..n {
            let b = p.node(
                format!("b{i}"),
                vec!["data = 1".into(), "next".into()],
                Kind::Object,
            );
            p.arrow(prev.0, Some(prev.1), b, "", false);
            prev = (b, 1);
        }
        p.arrow(prev.0, Some(1), 1, "", false);
        p
    }

    #[test]
    fn a_list_is_a_row_and_nothing_overlaps() {
        let p = list(5);
        let l = layout(&p);
        assert_eq!(l.column, vec![0, 1, 2, 3, 4, 5]);
        assert!(l.rects.iter().all(|r| r.y == 0.0));
        for (i, a) in l.rects.iter().enumerate() {
            for b in &l.rects[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
        assert!(l.width >= l.rects[5].x + l.rects[5].w);
    }

    #[test]
    fn a_variable_stands_next_to_what_it_points_to() {
        let mut p = list(4);
        let y = p.node("y", vec!["&b2".into()], Kind::Root);
        p.arrow(y, Some(0), 3, "", false);
        let l = layout(&p);
        assert_eq!(l.column[y], 2);
        assert!(l.rects[y].y > 0.0, "below b1, which holds the list's row");
    }

    #[test]
    fn a_cycle_no_root_reaches_is_placed() {
        let mut p = list(2);
        let a = p.node("a", vec!["next".into()], Kind::Leaked);
        let b = p.node("b", vec!["next".into()], Kind::Leaked);
        p.arrow(a, Some(0), b, "", false);
        p.arrow(b, Some(0), a, "", false);
        let l = layout(&p);
        assert!(l.column.iter().all(|&c| c != usize::MAX));
        assert_eq!(l.column[a] + 1, l.column[b]);
        for (i, r) in l.rects.iter().enumerate() {
            for s in &l.rects[i + 1..] {
                assert!(!r.overlaps(s));
            }
        }
    }
}
