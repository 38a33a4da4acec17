//! One folder per verification technique.

pub mod seed000;
