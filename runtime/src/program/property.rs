//! The SV-COMP properties: names, verdict lines, and parsing of `--check` lists and `.prp`
//! property files (line by line: `CHECK( init(main()), LTL(G ...) )`).

use std::collections::BTreeSet;
use std::fmt;

/// One checkable property.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// `reach_error`, `__VERIFIER_error` and failing assertions are unreachable.
    UnreachCall,
    /// Every dereference is of a valid pointer.
    ValidDeref,
    /// Every `free` is of a live heap block's start (or NULL).
    ValidFree,
    /// No heap block becomes unreachable while allocated.
    ValidMemtrack,
    /// All heap memory is freed when the program terminates.
    ValidMemcleanup,
    /// A function returns in a state that meets its contract's postcondition (checked only
    /// when a function is verified alone against its contract; never an SV-COMP property).
    Contract,
}

impl Property {
    /// The SV-COMP name, as in `FALSE(valid-deref)`.
    pub fn name(self) -> &'static str {
        match self {
            Property::UnreachCall => "unreach-call",
            Property::ValidDeref => "valid-deref",
            Property::ValidFree => "valid-free",
            Property::ValidMemtrack => "valid-memtrack",
            Property::ValidMemcleanup => "valid-memcleanup",
            Property::Contract => "contract",
        }
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The set of properties a run checks.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PropertySet(pub BTreeSet<Property>);

/// The property names, comma-separated (`unreach-call, valid-deref`).
impl fmt::Display for PropertySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.0.iter().map(|p| p.name()).collect();
        f.write_str(&names.join(", "))
    }
}

impl PropertySet {
    /// Whether `p` is checked.
    pub fn has(&self, p: Property) -> bool {
        self.0.contains(&p)
    }

    /// Parses a comma-separated list: `unreach-call`, `valid-memsafety` (deref, free,
    /// memtrack), `valid-memcleanup`, or single memory-safety subproperties.
    pub fn parse_list(s: &str) -> Result<PropertySet, String> {
        let mut set = BTreeSet::new();
        for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            set.extend(expand(item).ok_or_else(|| {
                format!(
                    "unknown property `{item}` (expected unreach-call, valid-memsafety, \
                     valid-memcleanup, valid-deref, valid-free or valid-memtrack)"
                )
            })?);
        }
        if set.is_empty() {
            return Err("no property to check".into());
        }
        Ok(PropertySet(set))
    }

    /// Parses the text of an SV-COMP `.prp` file.
    pub fn parse_prp(text: &str) -> Result<PropertySet, String> {
        let mut set = BTreeSet::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            set.extend(prp_line(line).map_err(|e| format!("line {}: {e}", i + 1))?);
        }
        if set.is_empty() {
            return Err("the property file names no property".into());
        }
        Ok(PropertySet(set))
    }
}

fn expand(item: &str) -> Option<Vec<Property>> {
    Some(match item {
        "unreach-call" => vec![Property::UnreachCall],
        "valid-memsafety" => vec![
            Property::ValidDeref,
            Property::ValidFree,
            Property::ValidMemtrack,
        ],
        "valid-deref" => vec![Property::ValidDeref],
        "valid-free" => vec![Property::ValidFree],
        "valid-memtrack" => vec![Property::ValidMemtrack],
        "valid-memcleanup" => vec![Property::ValidMemcleanup],
        _ => return None,
    })
}

/// One `CHECK( init(main()), LTL(G ...) )` line.
fn prp_line(line: &str) -> Result<Vec<Property>, String> {
    let inner = line
        .strip_prefix("CHECK(")
        .and_then(|r| r.strip_suffix(')'))
        .ok_or("expected `CHECK( init(main()), LTL(...) )`")?;
    let (init, ltl) = inner
        .split_once(',')
        .ok_or("expected `init(...), LTL(...)`")?;
    if init.trim() != "init(main())" {
        return Err(format!("unsupported entry point `{}`", init.trim()));
    }
    let formula = ltl
        .trim()
        .strip_prefix("LTL(")
        .and_then(|r| r.strip_suffix(')'))
        .ok_or("expected `LTL(...)`")?
        .trim();
    let body = formula
        .strip_prefix('G')
        .ok_or("expected a `G` formula")?
        .trim();
    if let Some(call) = body.strip_prefix('!') {
        let call = call.trim().replace(' ', "");
        return match call.as_str() {
            "call(reach_error())" | "call(__VERIFIER_error())" => Ok(vec![Property::UnreachCall]),
            _ => Err(format!("unsupported reachability target `{call}`")),
        };
    }
    expand(body).ok_or_else(|| format!("unsupported property `{body}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memsafety_prp_has_three_subproperties() {
        let text = "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n";
        let s = PropertySet::parse_prp(text).unwrap();
        assert_eq!(s.0.len(), 3);
        assert!(s.has(Property::ValidMemtrack) && !s.has(Property::ValidMemcleanup));
    }

    #[test]
    fn unreach_call_prp() {
        let s = PropertySet::parse_prp("CHECK( init(main()), LTL(G ! call(reach_error())) )\n")
            .unwrap();
        assert!(s.has(Property::UnreachCall));
    }

    #[test]
    fn unsupported_prp_is_an_error() {
        let e = PropertySet::parse_prp("CHECK( init(main()), LTL(F end) )").unwrap_err();
        assert!(e.contains("line 1"), "{e}");
        assert!(PropertySet::parse_list("termination").is_err());
    }
}
