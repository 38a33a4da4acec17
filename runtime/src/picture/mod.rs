//! Pictures of heaps, for a person to look at: the concrete heap where a counterexample
//! violates its property, and the shape graphs of a proof.
//!
//! Consumes a [`Picture`] per panel (boxes made of a title and rows, arrows from a box or one
//! of its rows to another box) and produces one self-contained SVG document, with no tool
//! beyond a browser needed to view it. [`layout`] places the boxes in columns by their
//! distance from the roots (the variables), [`svg`] draws them. Who builds the pictures: the
//! concrete machine draws a memory ([`crate::explicit::draw`]), seed 000 its shape graphs.

pub mod layout;
pub mod svg;

/// One panel: boxes and arrows under a caption.
#[derive(Clone, Debug, Default)]
pub struct Picture {
    /// The panel's caption (a location, a violation).
    pub caption: String,
    /// The boxes.
    pub boxes: Vec<Node>,
    /// The arrows between boxes.
    pub arrows: Vec<Arrow>,
}

/// A box: a title over rows of text.
#[derive(Clone, Debug)]
pub struct Node {
    /// The title (a variable, a block, an abstract node).
    pub title: String,
    /// One line per field or predicate.
    pub rows: Vec<String>,
    /// How the box is drawn.
    pub kind: Kind,
}

/// What a box stands for, which decides its colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A program variable.
    Root,
    /// An object (a live heap block, a concrete abstract node).
    Object,
    /// An abstract node standing for any number of objects.
    Summary,
    /// A freed block.
    Freed,
    /// A live block no root reaches (a leak).
    Leaked,
}

/// An arrow from a box, or from one of its rows, to a box.
#[derive(Clone, Debug)]
pub struct Arrow {
    /// The source box.
    pub from: usize,
    /// The row of the source box it leaves from (the title when `None`).
    pub row: Option<usize>,
    /// The target box.
    pub to: usize,
    /// Text written along the arrow (empty for none).
    pub label: String,
    /// Whether the arrow may or may not be there (drawn dashed).
    pub maybe: bool,
}

impl Picture {
    /// An empty panel under `caption`.
    pub fn new(caption: impl Into<String>) -> Picture {
        Picture {
            caption: caption.into(),
            ..Picture::default()
        }
    }

    /// Adds a box; returns its index.
    pub fn node(&mut self, title: impl Into<String>, rows: Vec<String>, kind: Kind) -> usize {
        self.boxes.push(Node {
            title: title.into(),
            rows,
            kind,
        });
        self.boxes.len() - 1
    }

    /// Adds an arrow.
    pub fn arrow(&mut self, from: usize, row: Option<usize>, to: usize, label: &str, maybe: bool) {
        self.arrows.push(Arrow {
            from,
            row,
            to,
            label: label.to_string(),
            maybe,
        });
    }
}
