mod none {
    shapecheck_macros::spec!();
}

mod not_a_string {
    shapecheck_macros::spec!(specs::lists);
}

mod named {
    shapecheck_macros::spec!(file = "specs/lists.shape");
}

mod missing_comma {
    shapecheck_macros::spec!("a.shape" "b.shape");
}

fn main() {}
