//! shapecheck's runtime: the C front end, the program IR, the explicit-heap engine with its
//! property checks, the SMT layer, concrete replay of counterexamples, and reports.
#![forbid(unsafe_code)]

pub mod budget;
pub mod cfa;
pub mod exec;
pub mod explore;
pub mod frontend;
pub mod ir;
pub mod lazy;
pub mod memory;
pub mod pathcheck;
pub mod property;
pub mod replay;
pub mod report;
pub mod sample;
pub mod shape;
pub mod smt;
pub mod term;
