shapecheck_macros::spec!("specs/no_such_file.shape");

fn main() {}
