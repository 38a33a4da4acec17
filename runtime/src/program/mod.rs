//! The program a verifier reads: the C front end (C file in, [`ir::Program`] out), the IR
//! itself and its printer ([`cfa`]), abstract paths through it ([`path`]), and the SV-COMP
//! properties to check.

pub mod cfa;
pub mod devirt;
pub mod frontend;
pub mod holder;
pub mod ir;
pub mod links;
pub mod path;
pub mod property;
pub mod sra;
pub mod temps;
