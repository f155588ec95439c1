//! A source file and its line index: the one place where byte offsets
//! become 1-based lines and columns. Diagnostics (rendered or as JSON), the
//! interpreter's run-time errors and the locations compiled into generated
//! code all read them here, so one span reads alike everywhere.
//!
//! Columns count characters, not bytes: `♠` before an error on its line
//! moves the column by one.

use crate::span::Span;

/// A file's name (as shown in messages), its text and where its lines start.
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: String,
    /// The byte offset of each line's first byte; the first is 0.
    line_starts: Vec<usize>,
}

impl SourceFile {
    pub fn new(name: &str, text: &str) -> SourceFile {
        SourceFile::owning(name.to_string(), text.to_string())
    }

    /// [`SourceFile::new`] without copying the text.
    pub fn owning(name: String, text: String) -> SourceFile {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        SourceFile { name, text, line_starts }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The 0-based index of the line holding byte `offset` (the last line
    /// for an offset past the end).
    pub fn line_index(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|s| *s <= offset).saturating_sub(1)
    }

    /// The bytes of line `line` (0-based), its newline included; `None`
    /// past the last line.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let start = *self.line_starts.get(line)?;
        let end = self.line_starts.get(line + 1).copied().unwrap_or(self.text.len());
        Some(start..end)
    }

    /// The 1-based line and column of byte `offset`, the column counted in
    /// characters (a character is counted once its last byte is passed).
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let line = self.line_index(offset);
        let range = self.line_range(line).unwrap_or(0..0);
        let end = offset.min(range.end).min(self.text.len());
        let column = (range.start..end).filter(|b| self.text.is_char_boundary(b + 1)).count();
        (line + 1, column + 1)
    }

    /// `file:line:column: `, the prefix of a run-time error at `span`.
    pub fn at(&self, span: Span) -> String {
        let (line, column) = self.line_column(span.start as usize);
        format!("{}:{line}:{column}: ", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters() {
        let f = SourceFile::new("g.gala", "ab\n// é ♠ x\n\nlast");
        assert_eq!(f.line_column(0), (1, 1));
        assert_eq!(f.line_column(2), (1, 3));
        assert_eq!(f.line_column(3), (2, 1));
        // `// é ♠ ` is 7 characters (and 11 bytes).
        let x = f.text().find('x').expect("x");
        assert_eq!(f.line_column(x), (2, 8));
        assert_eq!(f.line_column(f.text().find("last").expect("last")), (4, 1));
        assert_eq!(f.line_column(f.text().len() + 5), (4, 5));
        assert_eq!(f.at(Span::new(crate::span::FileId(0), x, x + 1)), "g.gala:2:8: ");
    }

    #[test]
    fn an_empty_file_has_one_line() {
        let f = SourceFile::new("e.gala", "");
        assert_eq!(f.line_column(0), (1, 1));
        assert_eq!(f.line_range(0), Some(0..0));
        assert_eq!(f.line_range(1), None);
    }
}
