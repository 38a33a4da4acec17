//! Reading C input: runs the system preprocessor on `.c` files, reads `.i` files as they are,
//! and maps byte offsets of the preprocessed text back to lines of the user's file through the
//! `# line "file"` markers.

use std::path::Path;
use std::process::Command;

/// Preprocessed source text with its line map.
pub struct Source {
    /// The preprocessed text that lang-c parses.
    pub text: String,
    /// The preprocessed text as the C compiler reads it (before the respellings for lang-c).
    pub raw: String,
    /// Start offset of every physical line.
    starts: Vec<usize>,
    /// For every physical line, the (file index, line) it came from.
    origin: Vec<(u32, u32)>,
    /// File names seen in line markers.
    files: Vec<String>,
}

/// Why the input could not be read.
#[derive(Debug)]
pub struct ReadError(pub String);

impl Source {
    /// Reads `path`, preprocessing it with `cc -E` unless it ends in `.i`.
    pub fn load(path: &Path) -> Result<Source, ReadError> {
        if !path.exists() {
            return Err(ReadError(format!("{}: no such file", path.display())));
        }
        let text = if path.extension().is_some_and(|e| e == "i") {
            std::fs::read_to_string(path)
                .map_err(|e| ReadError(format!("{}: {e}", path.display())))?
        } else {
            preprocess(path)?
        };
        Ok(Source::from_text(text, &path.display().to_string()))
    }

    /// Builds the line map of already preprocessed text. Identifier characters that lang-c
    /// does not read (UTF-8 letters, `$`, both accepted by GCC) are spelled in ASCII first,
    /// and GCC's 128-bit integer type names in a spelling it parses (`long long long`).
    pub fn from_text(text: String, name: &str) -> Source {
        let raw = text;
        let text = int128_names(ascii_identifiers(raw.clone()));
        let mut starts = Vec::new();
        let mut origin = Vec::new();
        let mut files = vec![name.to_string()];
        let (mut file, mut line) = (0u32, 1u32);
        let mut offset = 0;
        for raw in text.split_inclusive('\n') {
            starts.push(offset);
            origin.push((file, line));
            offset += raw.len();
            match parse_marker(raw) {
                Some((l, f)) => {
                    line = l;
                    if let Some(f) = f {
                        file = intern(&mut files, f);
                    }
                }
                None => line += 1,
            }
        }
        Source {
            text,
            raw,
            starts,
            origin,
            files,
        }
    }

    /// The line in the original file for a byte offset of the preprocessed text.
    pub fn line_of(&self, offset: usize) -> u32 {
        if offset == usize::MAX || self.starts.is_empty() {
            return 0;
        }
        let i = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        self.origin[i].1
    }

    /// The 1-based column (in bytes) of a byte offset of the preprocessed text.
    pub fn column_of(&self, offset: usize) -> usize {
        let i = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        offset.saturating_sub(self.starts.get(i).copied().unwrap_or(0)) + 1
    }

    /// The file a byte offset came from.
    pub fn file_of(&self, offset: usize) -> &str {
        let i = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        self.origin
            .get(i)
            .map_or(self.files[0].as_str(), |o| &self.files[o.0 as usize])
    }
}

/// `text` with every non-ASCII character, universal character name (`\u00e9`, which is how
/// `cc -E` writes them) and `$` outside string and character literals replaced by one ASCII
/// spelling (`é` becomes `__U000000e9__`), which is unique and keeps the lines of the text.
/// Outside literals, preprocessed C has such characters in identifiers only.
fn ascii_identifiers(text: String) -> String {
    if text.is_ascii() && !text.contains('$') && !text.contains("\\u") && !text.contains("\\U") {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q || c == '\n' {
                    quote = None;
                }
            }
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                out.push(c);
            }
            None if !c.is_ascii() || c == '$' => {
                out.push_str(&format!("__U{:08x}__", c as u32));
            }
            None if c == '\\' && matches!(chars.peek(), Some('u' | 'U')) => {
                let n = if chars.next() == Some('u') { 4 } else { 8 };
                let digits: String = (0..n).filter_map(|_| chars.next()).collect();
                match u32::from_str_radix(&digits, 16) {
                    Ok(v) => out.push_str(&format!("__U{v:08x}__")),
                    Err(_) => {
                        out.push('\\');
                        out.push_str(&digits);
                    }
                }
            }
            None => out.push(c),
        }
    }
    out
}

/// `__int128` (and the typedef names `__int128_t`, `__uint128_t`) outside literals spelled
/// `long long long`, which lang-c parses as a list of specifiers and the front end reads as
/// the 128-bit integer type.
fn int128_names(text: String) -> String {
    if !text.contains("int128") {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "__int128" | "__int128_t" => "long long long",
            "__uint128_t" => "unsigned long long long",
            w => w,
        });
        word.clear();
    };
    for c in text.chars() {
        if quote.is_none() && (c.is_ascii_alphanumeric() || c == '_') {
            word.push(c);
            continue;
        }
        flush(&mut word, &mut out);
        out.push(c);
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q || c == '\n' => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None => {}
        }
    }
    flush(&mut word, &mut out);
    out
}

fn intern(files: &mut Vec<String>, f: &str) -> u32 {
    match files.iter().position(|x| x == f) {
        Some(i) => i as u32,
        None => {
            files.push(f.to_string());
            (files.len() - 1) as u32
        }
    }
}

/// Parses `# 12 "file" 1 3` or `#line 12 "file"`: the line number of the next line and the file.
fn parse_marker(raw: &str) -> Option<(u32, Option<&str>)> {
    let rest = raw.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let line = digits.parse().ok()?;
    let after = &rest[digits.len()..];
    let file = after
        .split('"')
        .nth(1)
        .filter(|_| after.trim_start().starts_with('"'));
    Some((line, file))
}

fn preprocess(path: &Path) -> Result<String, ReadError> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let out = Command::new(&cc)
        .args(["-E", "-std=gnu99", "-D__SHAPECHECK__"])
        .arg(path)
        .output()
        .map_err(|e| ReadError(format!("cannot run the C preprocessor `{cc}`: {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(ReadError(format!(
            "preprocessing {} failed:\n{err}",
            path.display()
        )));
    }
    String::from_utf8(out.stdout).map_err(|_| ReadError("preprocessed text is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_map_lines() {
        let text = "# 1 \"a.c\"\nint x;\n# 10 \"a.c\"\nint y;\nint z;\n".to_string();
        let s = Source::from_text(text, "a.c");
        let y = s.text.find("int y").unwrap();
        let z = s.text.find("int z").unwrap();
        assert_eq!(s.line_of(s.text.find("int x").unwrap()), 1);
        assert_eq!(s.line_of(y), 10);
        assert_eq!(s.line_of(z), 11);
        assert_eq!(s.file_of(z), "a.c");
    }

    #[test]
    fn utf8_identifiers_are_spelled_in_ascii_outside_literals() {
        let s = Source::from_text(
            "int café = 1;\nchar *s = \"é$\";\nint a$b = caf\\U000000e9 + caf\\u00E9;\n".into(),
            "u.c",
        );
        assert_eq!(
            s.text,
            "int caf__U000000e9__ = 1;\nchar *s = \"é$\";\n\
             int a__U00000024__b = caf__U000000e9__ + caf__U000000e9__;\n"
        );
        assert_eq!(s.line_of(s.text.find("a__U").unwrap()), 3);
    }

    #[test]
    fn plain_text_counts_physical_lines() {
        let s = Source::from_text("a\nb\nc\n".into(), "x.i");
        assert_eq!(s.line_of(4), 3);
    }
}
