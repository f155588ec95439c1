//! One open document analysed: its diagnostics (those of `galac check`),
//! its parsed and typed program, its names ([`crate::index`]), and the
//! conversion between byte offsets and LSP positions (UTF-16 code units).

use galac_compiler::ast;
use galac_compiler::diagnostic::{Diagnostic, SourceMap};
use galac_compiler::span::{FileId, Span};
use galac_compiler::typeck::consts::ParamValue;
use galac_compiler::typeck::tast;
use lsp_types::{Position, Range};

use crate::index::{index, Index};

pub struct Analysis {
    pub text: String,
    /// The byte offset of each line's start.
    line_starts: Vec<usize>,
    /// Every error and warning `galac check` reports.
    pub diagnostics: Vec<Diagnostic>,
    pub program: Option<ast::Program>,
    pub typed: Option<tast::Program>,
    /// The params' and consts' default values (when they compute).
    pub values: Option<Vec<ParamValue>>,
    pub index: Index,
}

/// The file id of the one document an analysis holds.
pub const FILE: FileId = FileId(0);

impl Analysis {
    pub fn new(name: &str, text: String) -> Analysis {
        let mut sources = SourceMap::new();
        let diagnostics = match galac_compiler::compile(&mut sources, name, text.as_bytes()) {
            Ok(compiled) => compiled.warnings,
            Err(errors) => errors,
        };
        let (program, _) = galac_compiler::parser::parse(FILE, &text);
        let typed = program.as_ref().and_then(|p| galac_compiler::typeck::check(p).0);
        let values = typed.as_ref().and_then(|t| galac_compiler::compile::param_values(t, &[]).ok());
        let index = program.as_ref().map(index).unwrap_or_default();
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Analysis { text, line_starts, diagnostics, program, typed, values, index }
    }

    /// The LSP position of byte `offset` (its column in UTF-16 code units).
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|s| *s <= offset).saturating_sub(1);
        let start = self.line_starts[line];
        let column: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position { line: line as u32, character: column as u32 }
    }

    pub fn range(&self, span: Span) -> Range {
        Range { start: self.position(span.start as usize), end: self.position(span.end as usize) }
    }

    /// The byte offset of an LSP position (clamped to its line).
    pub fn offset(&self, position: Position) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else { return self.text.len() };
        let end = self.line_starts.get(position.line as usize + 1).map_or(self.text.len(), |e| e - 1);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or_default()
    }

    /// The whole document's range.
    pub fn full_range(&self) -> Range {
        Range { start: Position { line: 0, character: 0 }, end: self.position(self.text.len()) }
    }
}
