//! shapecheck's runtime: the C front end, the program IR, the engines and the SMT layer.
pub fn z3_version() -> String { z3::full_version().to_string() }
