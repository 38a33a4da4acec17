//! Decoding of C string and character literals: the one place where escapes are read.
//!
//! Consumes the literal spellings lang-c keeps (quotes, encoding prefixes and escapes
//! included; a string literal is the list of its adjacent pieces); produces the code units
//! the program sees ([`StrLit`] for strings, a value and type for character constants).
//! Narrow literals are UTF-8 bytes; `L`, `u` and `U` literals are `wchar_t` (32-bit signed on
//! Linux), `char16_t` and `char32_t` units; `u8` literals are narrow.

use crate::program::ir::{IntTy, StrLit};

/// The encoding a literal's prefix selects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Encoding {
    /// No prefix or `u8`: bytes.
    Narrow,
    /// `L`: `wchar_t`.
    Wide,
    /// `u`: `char16_t`.
    Utf16,
    /// `U`: `char32_t`.
    Utf32,
}

impl Encoding {
    fn elem(self) -> IntTy {
        match self {
            Encoding::Narrow => IntTy::CHAR,
            Encoding::Wide => IntTy::INT,
            Encoding::Utf16 => IntTy::new(16, false),
            Encoding::Utf32 => IntTy::UINT,
        }
    }

    /// Splits a spelling into its encoding and the text between the quotes.
    fn split(spelling: &str, quote: char) -> Result<(Encoding, &str), String> {
        let start = spelling
            .find(quote)
            .ok_or_else(|| format!("malformed literal {spelling}"))?;
        let enc = match &spelling[..start] {
            "" | "u8" => Encoding::Narrow,
            "L" => Encoding::Wide,
            "u" => Encoding::Utf16,
            "U" => Encoding::Utf32,
            p => return Err(format!("unknown literal prefix `{p}`")),
        };
        let body = spelling[start + 1..]
            .strip_suffix(quote)
            .ok_or_else(|| format!("unterminated literal {spelling}"))?;
        Ok((enc, body))
    }
}

/// Decodes a string literal made of adjacent pieces (`"ab" "cd"` is `abcd`). Pieces with
/// different wide prefixes take the wide one, as C11 requires.
pub(crate) fn string_literal(pieces: &[String]) -> Result<StrLit, String> {
    let mut enc = Encoding::Narrow;
    let mut bodies = vec![];
    for p in pieces {
        let (e, body) = Encoding::split(p, '"')?;
        if e != Encoding::Narrow {
            if enc != Encoding::Narrow && enc != e {
                return Err("concatenation of string literals with different prefixes".into());
            }
            enc = e;
        }
        bodies.push(body);
    }
    let mut units = vec![];
    for body in bodies {
        units.extend(decode(body, enc)?);
    }
    Ok(StrLit {
        elem: enc.elem(),
        units,
    })
}

/// A string literal of plain ASCII text (`__func__`, `argv[0]`).
pub(crate) fn plain(text: &str) -> StrLit {
    StrLit {
        elem: IntTy::CHAR,
        units: text.bytes().map(u32::from).collect(),
    }
}

/// Decodes a character constant: its value and its type (`int` for plain constants).
pub(crate) fn char_constant(spelling: &str) -> Result<(i64, IntTy), String> {
    let (enc, body) = Encoding::split(spelling, '\'')?;
    let units = decode(body, enc)?;
    match (enc, units.as_slice()) {
        (_, []) => Err("empty character constant".into()),
        (Encoding::Narrow, [b]) => Ok((i64::from(*b as u8 as i8), IntTy::INT)),
        // A multi-character constant: GCC's value, the bytes in big-endian order.
        (Encoding::Narrow, bytes) if bytes.len() <= 4 => {
            let v = bytes.iter().fold(0u32, |v, b| (v << 8) | (b & 0xff));
            Ok((i64::from(v as i32), IntTy::INT))
        }
        (Encoding::Narrow, _) => Err("character constant too long".into()),
        (e, [u]) => {
            let ty = e.elem();
            Ok((
                crate::explicit::term::Term::constant(i64::from(*u), ty)
                    .as_const()
                    .unwrap_or(0),
                ty,
            ))
        }
        _ => Err("wide character constant with more than one character".into()),
    }
}

/// Decodes the text between the quotes into code units of `enc`.
fn decode(body: &str, enc: Encoding) -> Result<Vec<u32>, String> {
    let mut out = vec![];
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            push_char(&mut out, c, enc);
            continue;
        }
        let e = chars.next().ok_or("a literal ends with `\\`")?;
        match e {
            'n' => out.push(10),
            't' => out.push(9),
            'r' => out.push(13),
            'a' => out.push(7),
            'b' => out.push(8),
            'f' => out.push(12),
            'v' => out.push(11),
            'e' | 'E' => out.push(27),
            '\\' | '\'' | '"' | '?' => out.push(e as u32),
            '0'..='7' => out.push(octal(e, &mut chars)),
            'x' => out.push(hex(&mut chars, enc)?),
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let c = universal(&mut chars, n)?;
                push_char(&mut out, c, enc);
            }
            // GCC warns and keeps the character.
            other => push_char(&mut out, other, enc),
        }
    }
    Ok(out)
}

/// Appends a source character in the literal's encoding.
fn push_char(out: &mut Vec<u32>, c: char, enc: Encoding) {
    match enc {
        Encoding::Narrow => {
            let mut buf = [0u8; 4];
            out.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
        }
        Encoding::Utf16 => {
            let mut buf = [0u16; 2];
            out.extend(c.encode_utf16(&mut buf).iter().map(|u| u32::from(*u)));
        }
        Encoding::Wide | Encoding::Utf32 => out.push(c as u32),
    }
}

/// An octal escape: one to three digits, the first already read.
fn octal(first: char, chars: &mut std::iter::Peekable<std::str::Chars>) -> u32 {
    let mut v = first.to_digit(8).unwrap_or(0);
    for _ in 0..2 {
        match chars.peek().and_then(|d| d.to_digit(8)) {
            Some(d) => {
                v = v * 8 + d;
                chars.next();
            }
            None => break,
        }
    }
    v & 0xff
}

/// A hexadecimal escape: every following hex digit, truncated to the unit width as GCC does
/// (with a warning there).
fn hex(chars: &mut std::iter::Peekable<std::str::Chars>, enc: Encoding) -> Result<u32, String> {
    let mut v: u64 = 0;
    let mut n = 0;
    while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
        v = (v << 4 | u64::from(d)) & 0xffff_ffff;
        n += 1;
        chars.next();
    }
    if n == 0 {
        return Err("`\\x` used with no following hex digits".into());
    }
    let bits = enc.elem().bits;
    Ok(crate::explicit::term::mask(v, bits) as u32)
}

/// A universal character name `\uXXXX` or `\UXXXXXXXX`.
fn universal(chars: &mut std::iter::Peekable<std::str::Chars>, n: usize) -> Result<char, String> {
    let digits: String = (0..n).filter_map(|_| chars.next()).collect();
    u32::from_str_radix(&digits, 16)
        .ok()
        .filter(|_| digits.len() == n)
        .and_then(char::from_u32)
        .ok_or_else(|| format!("invalid universal character name `{digits}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(pieces: &[&str]) -> Vec<u32> {
        let p: Vec<String> = pieces.iter().map(|s| s.to_string()).collect();
        string_literal(&p).unwrap().units
    }

    #[test]
    fn adjacent_pieces_concatenate() {
        assert_eq!(bytes(&["\"ab\"", "\"cd\""]), vec![97, 98, 99, 100]);
    }

    #[test]
    fn escapes_decode_once() {
        assert_eq!(bytes(&[r#""\x41""#]), vec![0x41]);
        assert_eq!(bytes(&[r#""\1011""#]), vec![0o101, u32::from(b'1')]);
        assert_eq!(bytes(&[r#""\0""#]), vec![0]);
        assert_eq!(bytes(&[r#""\"\\\n""#]), vec![34, 92, 10]);
        assert_eq!(bytes(&[r#""\x4""#, r#""1""#]), vec![4, u32::from(b'1')]);
        assert_eq!(bytes(&["\"é\""]), vec![0xc3, 0xa9]);
        assert_eq!(bytes(&[r#""\u00e9""#]), vec![0xc3, 0xa9]);
    }

    #[test]
    fn wide_literals_have_wide_units() {
        let s = string_literal(&["L\"a\u{e9}\"".to_string()]).unwrap();
        assert_eq!(s.elem, IntTy::INT);
        assert_eq!(s.units, vec![97, 0xe9]);
        let s = string_literal(&["\"a\"".to_string(), "U\"b\"".to_string()]).unwrap();
        assert_eq!(s.elem, IntTy::UINT);
        assert_eq!(s.units, vec![97, 98]);
    }

    #[test]
    fn character_constants() {
        assert_eq!(char_constant("'a'"), Ok((97, IntTy::INT)));
        assert_eq!(char_constant(r"'\xff'"), Ok((-1, IntTy::INT)));
        assert_eq!(char_constant(r"'\377'"), Ok((-1, IntTy::INT)));
        assert_eq!(char_constant(r"'\''"), Ok((39, IntTy::INT)));
        assert_eq!(char_constant("'ab'"), Ok((0x6162, IntTy::INT)));
        assert_eq!(char_constant("L'\u{e9}'"), Ok((0xe9, IntTy::INT)));
        assert!(char_constant("''").is_err());
        assert_eq!(char_constant(r"'\q'"), Ok((113, IntTy::INT)));
    }
}
