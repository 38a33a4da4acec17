//! One folder per verification technique, each an `crate::engine::Engine`.

pub mod explicit;
pub mod seed000;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod seed004;
