//! The explicit machine every engine shares: symbolic machine integers ([`term`]), explicit
//! heaps ([`memory`]), the semantics of one CFA edge with the property checks ([`exec`]), the
//! explicit-heap explorer ([`explore`]), concrete replay of counterexamples ([`replay`]),
//! heap sampling for the classification of data structures ([`sample`]) and pictures of a
//! state ([`draw`]).

pub mod draw;
pub mod exec;
pub mod explore;
pub mod memory;
pub mod replay;
pub mod sample;
pub mod term;
