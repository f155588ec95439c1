//! The Gala language server, `galac lsp`: LSP over a connection (standard
//! input and output, or in memory for tests) with `lsp-server` and
//! `lsp-types`, the scaffold rust-analyzer, gleam and nickel's nls use.
//!
//! Documents are synchronised whole; each change is analysed again
//! ([`analysis::Analysis`]: `galac check`'s diagnostics, the parsed and
//! typed program, the names) and its diagnostics published. Requests:
//! hover, go to definition, find references, document symbols, formatting
//! (`galac fmt`) and rename. The compiler knows nothing of LSP: this crate
//! turns its spans and diagnostics into LSP's positions and messages.

pub mod analysis;
pub mod hover;
pub mod index;
mod requests;

use std::collections::HashMap;
use std::error::Error;

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::{
    HoverProviderCapability, OneOf, PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability,
    TextDocumentSyncKind, Uri,
};

use crate::analysis::Analysis;

pub type Result<T> = std::result::Result<T, Box<dyn Error + Send + Sync>>;

/// Stack of the server's thread: the compiler's passes recurse as deep as
/// the program nests (bounded by the AST's limit).
const STACK: usize = 256 << 20;

/// Serves LSP on standard input and output until the client exits.
pub fn run_stdio() -> Result<()> {
    let (connection, io_threads) = Connection::stdio();
    serve(connection)?;
    io_threads.join()?;
    Ok(())
}

/// Serves LSP on `connection`: the initialize handshake, then requests and
/// notifications until `shutdown` and `exit`.
pub fn serve(connection: Connection) -> Result<()> {
    let worker = std::thread::Builder::new().stack_size(STACK).spawn(move || -> Result<()> {
        let capabilities = serde_json::to_value(capabilities())?;
        connection.initialize(capabilities)?;
        Server { connection, documents: HashMap::new() }.run()
    })?;
    worker.join().map_err(|_| "internal error: the language server panicked, please report")?
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

pub(crate) struct Server {
    connection: Connection,
    documents: requests::Documents,
}

impl Server {
    fn run(mut self) -> Result<()> {
        while let Ok(message) = self.connection.receiver.recv() {
            match message {
                Message::Request(request) => {
                    if self.connection.handle_shutdown(&request)? {
                        return Ok(());
                    }
                    let response = requests::handle(&self.documents, request);
                    self.connection.sender.send(Message::Response(response))?;
                }
                Message::Notification(notification) => self.notification(notification)?,
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    fn notification(&mut self, n: Notification) -> Result<()> {
        let (uri, text, version) = match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams = serde_json::from_value(n.params)?;
                (p.text_document.uri, p.text_document.text, Some(p.text_document.version))
            }
            DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams = serde_json::from_value(n.params)?;
                // Full synchronisation: the last change is the whole text.
                let Some(change) = p.content_changes.into_iter().last() else { return Ok(()) };
                (p.text_document.uri, change.text, Some(p.text_document.version))
            }
            DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams = serde_json::from_value(n.params)?;
                self.documents.remove(p.text_document.uri.as_str());
                return self.publish(p.text_document.uri, Vec::new(), None);
            }
            _ => return Ok(()),
        };
        let name = uri.path().as_str().rsplit('/').next().unwrap_or("file.gala").to_string();
        let analysis = Analysis::new(&name, text);
        let diagnostics = requests::diagnostics(&uri, &analysis);
        self.documents.insert(uri.as_str().to_string(), (uri.clone(), analysis));
        self.publish(uri, diagnostics, version)
    }

    fn publish(&self, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>, version: Option<i32>) -> Result<()> {
        let params = PublishDiagnosticsParams { uri, diagnostics, version };
        let n = Notification::new(PublishDiagnostics::METHOD.to_string(), params);
        self.connection.sender.send(Message::Notification(n))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
