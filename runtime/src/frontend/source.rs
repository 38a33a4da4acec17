//! Reading C input: runs the system preprocessor on `.c` files, reads `.i` files as they are,
//! and maps byte offsets of the preprocessed text back to lines of the user's file through the
//! `# line "file"` markers.

use std::path::Path;
use std::process::Command;

/// Preprocessed source text with its line map.
pub struct Source {
    /// The preprocessed text that lang-c parses.
    pub text: String,
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

    /// Builds the line map of already preprocessed text.
    pub fn from_text(text: String, name: &str) -> Source {
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
    fn plain_text_counts_physical_lines() {
        let s = Source::from_text("a\nb\nc\n".into(), "x.i");
        assert_eq!(s.line_of(4), 3);
    }
}
