//! Shape analysis with three-valued logic (TVLA, seed 000 §2.3), generic in the spec: the
//! vocabulary of predicates comes from a checked spec (compiled or loaded at run time) and a
//! shape type per recursive struct; nothing here knows lists or trees.
//!
//! Stages: [`alias`] (reference parameters: `*pp` read as the caller's variable), [`slots`] (`struct s **` cursors over links: `*pp` read as the variable or field they address), [`vocab`] (which predicates), [`graph`] (structures, blur, embedding),
//! [`formula`] (three-valued evaluation of defining formulas), [`delta`] (finite differencing
//! bounds for closures), [`coerce`] (constraints from the definitions), [`data`] (field predicates of field
//! assertions), [`order`] (a field ordered along a link: sortedness), [`embed`] (struct variables and embedded members as nodes), [`own`] (blocks owned through raw
//! fields, absorbed into their owners), [`inner`] (raw fields pointing into their own cell), [`transfer`] (focus,
//! update, differencing per IR operation), [`analysis`] (the ART over the program's CFAs, path
//! simulation, certificate re-check), [`live`] (dead variables, forgotten after each step);
//! and for people and other tools, [`draw`] (structures as pictures) and [`facts`] (what the
//! graphs at the loop heads say in C, for correctness witnesses).

pub mod alias;
pub mod analysis;
pub mod coerce;
pub mod data;
pub mod delta;
pub mod draw;
pub mod embed;
pub mod facts;
pub mod formula;
pub mod graph;
pub mod inner;
pub mod live;
pub mod order;
pub mod own;
pub mod slots;
pub mod transfer;
pub mod vocab;
