//! Witnesses in SV-COMP's YAML witness format, version 2.0 (sv-witnesses, `format_version:
//! "2.0"`: the violation-witness and correctness-witness schemas of
//! <https://gitlab.com/sosy-lab/benchmarking/sv-witnesses>, release 2.0).
//!
//! Consumes a verdict's evidence (the replayed run of a FALSE, the located invariants of a
//! TRUE) and the task's metadata; produces the witness text: [`violation`] writes a
//! `violation_sequence`, [`correctness`] an `invariant_set`, [`format`] holds the entry
//! types both share and the checks every witness must pass, and [`validate`] replays a
//! violation witness in the concrete interpreter, driven by its waypoints alone.

pub mod correctness;
pub mod format;
pub mod validate;
pub mod violation;

use crate::program::ir::DataModel;
use crate::program::property::{Property, PropertySet};
use sha2::{Digest, Sha256};

/// The witness format version written and read.
pub const FORMAT_VERSION: &str = "2.0";

/// What every witness says about the task it is for.
#[derive(Clone, Debug)]
pub struct Meta {
    /// The input file, as the task names it (also each waypoint's `file_name`).
    pub file_name: String,
    /// SHA-256 of the input file's bytes, in hex.
    pub hash: String,
    /// The checked specification in SV-COMP's property syntax.
    pub specification: String,
    /// `ILP32` or `LP64`.
    pub data_model: &'static str,
    /// The producer's version.
    pub version: String,
    /// How the witness was produced (the command line), if known.
    pub command_line: Option<String>,
}

impl Meta {
    /// The metadata of a witness for `file_name` whose bytes are `input`.
    pub fn new(file_name: &str, input: &[u8], specification: String, model: DataModel) -> Meta {
        Meta {
            file_name: file_name.to_string(),
            hash: sha256_hex(input),
            specification,
            data_model: match model {
                DataModel::Ilp32 => "ILP32",
                DataModel::Lp64 => "LP64",
            },
            version: env!("CARGO_PKG_VERSION").to_string(),
            command_line: None,
        }
    }
}

/// The specification of `properties` as SV-COMP property files state it, one `CHECK` per
/// line (the text of the task's property file, when there is one, is used instead).
pub fn specification(properties: &PropertySet) -> String {
    let formulas: Vec<String> = properties.0.iter().map(|p| formula(*p)).collect();
    formulas
        .iter()
        .map(|f| format!("CHECK( init(main()), LTL({f}) )"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The LTL formula of one property.
pub fn formula(p: Property) -> String {
    match p {
        Property::UnreachCall => "G ! call(reach_error())".into(),
        other => format!("G {}", other.name()),
    }
}

/// Hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A version-4-style UUID derived from the witness's content (deterministic, so equal
/// witnesses get equal ids).
pub fn uuid_of(seed: &str) -> String {
    let h = Sha256::digest(seed.as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&h[..16]);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The current time in ISO 8601 (UTC, seconds).
pub fn now_iso8601() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    iso8601(secs)
}

/// A Unix time in ISO 8601 (UTC).
pub fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rest = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_ids_are_well_formed() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_795_521_600), "2026-11-24T12:00:00Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
        let id = uuid_of("x");
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert_ne!(uuid_of("x"), uuid_of("y"));
    }

    #[test]
    fn hashes_and_specifications() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let s = PropertySet::parse_list("unreach-call,valid-free").unwrap();
        assert_eq!(
            specification(&s),
            "CHECK( init(main()), LTL(G ! call(reach_error())) )\n\
             CHECK( init(main()), LTL(G valid-free) )"
        );
    }
}
