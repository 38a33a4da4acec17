// The error is in the second file: its diagnostic names that file and a line within it.
shapecheck_macros::spec!("fixtures/base.shape", "fixtures/wrong_arity.shape");

fn main() {}
