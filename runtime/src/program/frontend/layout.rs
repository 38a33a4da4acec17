//! Struct and union layout as GCC lays them out on x86 (System V, ILP32 or LP64), bit-fields
//! included.
//!
//! Consumes the members of a struct or union in declaration order (name, type, and the width
//! of a bit-field) and the sizes of the types they use; produces the [`Field`]s with their
//! byte offsets, the size and the alignment. A bit-field lies in a storage unit of its
//! declared type (it moves to the next unit rather than straddle one); a zero-width bit-field
//! pads to its type's alignment; unnamed bit-fields do not affect the struct's alignment. Each
//! bit-field is accessed through an unsigned unit: the bytes it shares with adjacent
//! bit-fields, so that their reads and writes use one memory cell and units never overlap.

use crate::program::ir::{BitSpec, DataModel, Field, IntTy, StructDef, Type, layout};

/// A member before layout: name (empty for an unnamed bit-field), type and bit-field width.
pub(super) struct Member {
    pub name: String,
    pub ty: Type,
    pub width: Option<u64>,
}

/// The laid-out members, size and alignment.
pub(super) struct Layout {
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
}

/// A member placed at a bit offset.
struct Placed {
    member: Member,
    bit: u64,
}

/// Lays out a struct (`union == false`) or union.
pub(super) fn lay_out(
    structs: &[StructDef],
    model: DataModel,
    union: bool,
    members: Vec<Member>,
) -> Layout {
    let (mut bit, mut end, mut align) = (0u64, 0u64, 1u64);
    let mut placed = vec![];
    for m in members {
        let a = layout::align_of(structs, model, &m.ty);
        let s = layout::size_of(structs, model, &m.ty);
        let start = if union { 0 } else { bit };
        let at = match m.width {
            Some(0) => {
                bit = round_up(start, a * 8);
                continue;
            }
            Some(w) => {
                let unit = s.saturating_mul(8).max(1);
                if start % unit + w > unit {
                    round_up(start, unit)
                } else {
                    start
                }
            }
            None => round_up(start, a.saturating_mul(8)),
        };
        if m.width.is_none() || !m.name.is_empty() {
            align = align.max(a);
        }
        let bits = m.width.unwrap_or(s.saturating_mul(8));
        bit = at.saturating_add(bits);
        end = end.max(bit);
        placed.push(Placed { member: m, bit: at });
    }
    let size = round_up(end.div_ceil(8), align);
    Layout {
        fields: fields(placed),
        size,
        align,
    }
}

fn round_up(x: u64, to: u64) -> u64 {
    x.div_ceil(to.max(1)).saturating_mul(to.max(1))
}

/// The fields, with the access unit of every bit-field.
fn fields(placed: Vec<Placed>) -> Vec<Field> {
    let units = units(&placed);
    placed
        .into_iter()
        .zip(units)
        .filter(|(p, _)| !(p.member.width.is_some() && p.member.name.is_empty()))
        .map(|(p, unit)| match (p.member.width, unit) {
            (Some(w), Some((offset, bytes))) => Field {
                name: p.member.name,
                ty: p.member.ty,
                offset,
                bits: Some(BitSpec {
                    unit: IntTy::new((bytes * 8) as u8, false),
                    shift: (p.bit - offset * 8) as u8,
                    width: w as u8,
                }),
            },
            _ => Field {
                name: p.member.name,
                ty: p.member.ty,
                offset: p.bit / 8,
                bits: None,
            },
        })
        .collect()
}

/// The access unit (byte offset and size) of every bit-field: the bytes of the run of
/// adjacent bit-fields that share bytes with it, so that units never overlap each other or
/// other members. A unit need not be 1, 2, 4 or 8 bytes: it is an internal integer of its
/// exact size.
fn units(placed: &[Placed]) -> Vec<Option<(u64, u64)>> {
    let bytes = |p: &Placed| {
        let w = p.member.width.unwrap_or(0).max(1);
        (p.bit / 8, (p.bit + w - 1) / 8)
    };
    let mut out = vec![None; placed.len()];
    let mut i = 0;
    while i < placed.len() {
        if placed[i].member.width.is_none() {
            i += 1;
            continue;
        }
        let (first, mut last) = bytes(&placed[i]);
        let mut j = i + 1;
        while j < placed.len() && placed[j].member.width.is_some() && bytes(&placed[j]).0 <= last {
            last = last.max(bytes(&placed[j]).1);
            j += 1;
        }
        let size = last - first + 1;
        for o in &mut out[i..j] {
            *o = (size <= 8).then_some((first, size));
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str, bits: u8, width: Option<u64>) -> Member {
        Member {
            name: name.into(),
            ty: Type::Int(IntTy::new(bits, false)),
            width,
        }
    }

    /// A field's offset and, for a bit-field, its unit width, shift and width.
    type Placement = (u64, Option<(u8, u8, u8)>);

    fn offsets(l: &Layout) -> Vec<Placement> {
        l.fields
            .iter()
            .map(|f| (f.offset, f.bits.map(|b| (b.unit.bits, b.shift, b.width))))
            .collect()
    }

    #[test]
    fn bitfields_share_a_unit() {
        let l = lay_out(
            &[],
            DataModel::Ilp32,
            false,
            vec![
                member("a", 32, Some(3)),
                member("b", 32, Some(5)),
                member("c", 32, Some(2)),
            ],
        );
        assert_eq!(l.size, 4);
        assert_eq!(
            offsets(&l),
            vec![
                (0, Some((8, 0, 3))),
                (0, Some((8, 3, 5))),
                (1, Some((8, 0, 2)))
            ]
        );
    }

    #[test]
    fn a_bitfield_that_would_straddle_its_unit_moves_on() {
        let l = lay_out(
            &[],
            DataModel::Lp64,
            false,
            vec![
                member("a", 8, Some(6)),
                member("b", 8, Some(4)),
                member("c", 32, None),
            ],
        );
        // a in byte 0, b in byte 1, c at 4: size 8, alignment 4.
        assert_eq!(l.size, 8);
        assert_eq!(
            offsets(&l),
            vec![(0, Some((8, 0, 6))), (1, Some((8, 0, 4))), (4, None)]
        );
    }

    #[test]
    fn units_never_overlap_other_members() {
        let l = lay_out(
            &[],
            DataModel::Lp64,
            false,
            vec![
                member("x", 8, None),
                member("a", 32, Some(20)),
                member("b", 32, Some(20)),
                member("c", 32, Some(3)),
            ],
        );
        // x: byte 0; a: bits 8..28 (bytes 1-3); b: bits 32..52 and c: 52..55 (bytes 4-6).
        assert_eq!(l.size, 8);
        assert_eq!(
            offsets(&l),
            vec![
                (0, None),
                (1, Some((24, 0, 20))),
                (4, Some((24, 0, 20))),
                (4, Some((24, 20, 3)))
            ]
        );
    }

    #[test]
    fn zero_width_and_unnamed_bitfields_pad() {
        let l = lay_out(
            &[],
            DataModel::Ilp32,
            false,
            vec![
                member("a", 32, Some(1)),
                member("", 32, Some(0)),
                member("b", 8, Some(2)),
                member("", 64, Some(3)),
            ],
        );
        assert_eq!(l.fields.len(), 2);
        assert_eq!(l.fields[1].offset, 4);
        assert_eq!(l.align, 4);
    }
}
