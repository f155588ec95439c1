//! Scripted LSP sessions: JSON-RPC messages written out as JSON, sent to
//! the server over an in-memory connection, the answers checked against
//! positions and counts found in the source text independently (by
//! searching it), and against the compiler run on edited text.

use lsp_server::{Connection, Message};
use serde_json::{json, Value};

/// A running server and the client's end of its connection.
struct Session {
    client: Connection,
    server: Option<std::thread::JoinHandle<crate::Result<()>>>,
    next_id: i64,
}

impl Session {
    fn start() -> Session {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || crate::serve(server));
        let mut s = Session { client, server: Some(handle), next_id: 0 };
        let init = s.request("initialize", json!({ "capabilities": {} }));
        assert_eq!(init["capabilities"]["hoverProvider"], json!(true), "{init}");
        s.notify("initialized", json!({}));
        s
    }

    fn send(&self, message: Value) {
        let message: Message = serde_json::from_value(message).expect("a JSON-RPC message");
        self.client.sender.send(message).expect("the server is listening");
    }

    fn receive(&self) -> Value {
        let message = self.client.receiver.recv_timeout(std::time::Duration::from_secs(30)).expect("an answer");
        serde_json::to_value(message).expect("serializes")
    }

    /// Sends a request; returns its result (failing on an error answer).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let answer = self.try_request(method, params);
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    fn try_request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params }));
        loop {
            let answer = self.receive();
            if answer.get("id") == Some(&json!(self.next_id)) {
                return answer;
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends the document's text and returns the diagnostics published for it.
    fn change(&self, text: &str, version: i32) -> Vec<Value> {
        let params = if version == 1 {
            json!({ "textDocument": { "uri": URI, "languageId": "gala", "version": 1, "text": text } })
        } else {
            json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [{ "text": text }] })
        };
        self.notify(if version == 1 { "textDocument/didOpen" } else { "textDocument/didChange" }, params);
        loop {
            let n = self.receive();
            if n["method"] == "textDocument/publishDiagnostics" {
                assert_eq!(n["params"]["version"], json!(version));
                return n["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.try_request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        if let Some(h) = self.server.take() {
            let result = h.join();
            if !std::thread::panicking() {
                assert!(matches!(result, Ok(Ok(()))), "the server stops cleanly");
            }
        }
    }
}

const URI: &str = "file:///games/game.gala";

fn example(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(name);
    std::fs::read_to_string(path).expect("example")
}

/// The LSP position of the `nth` occurrence of `needle` (plus `shift`
/// bytes), counted by hand: line and UTF-16 column.
fn position(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let at = text.match_indices(needle).nth(nth).map(|m| m.0).expect("needle in the text") + shift;
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": text[line_start..at].encode_utf16().count() })
}

fn at(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position(text, needle, nth, shift) })
}

#[test]
fn a_session_on_kuhn() {
    let kuhn = example("kuhn.gala");
    let mut s = Session::start();
    assert_eq!(s.change(&kuhn, 1), Vec::<Value>::new(), "kuhn checks clean");

    // A typo: the diagnostic sits on the misspelt name and suggests the right one.
    let typo = kuhn.replacen("turns += 1;", "turnz += 1;", 1);
    let diagnostics = s.change(&typo, 2);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    let start = position(&typo, "turnz", 0, 0);
    let end = position(&typo, "turnz", 0, "turnz".len());
    assert_eq!(d["range"], json!({ "start": start, "end": end }), "{d}");
    assert_eq!(d["severity"], json!(1));
    let message = d["message"].as_str().unwrap_or_default();
    assert!(message.contains("turnz") && message.contains("help:") && message.contains("`turns`"), "{message}");
    assert_eq!(s.change(&kuhn, 3), Vec::<Value>::new());

    // Hover at a `choose`: what the chooser has been told.
    let hover = s.request("textDocument/hover", at(&kuhn, "choose player m", 0, 2));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("reveal first my_card(c)") && text.contains("reveal second my_card(d)"), "{text}");
    assert!(!text.contains("moved(m)"), "revealed after the choice: {text}");
    // Hover on a param: its declaration and default.
    let hover = s.request("textDocument/hover", at(&kuhn, "1..=cards", 0, 4));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("param cards: int = 3") && text.contains("default: `3`"), "{text}");
    // Hover on a local: its type.
    let hover = s.request("textDocument/hover", at(&kuhn, "winner +=", 0, 0));
    assert!(hover["contents"]["value"].as_str().unwrap_or_default().contains("let winner: player"), "{hover}");

    // Definition and references of the state variable `put`.
    let def = s.request("textDocument/definition", at(&kuhn, "put[player] += 1", 0, 0));
    assert_eq!(def["range"]["start"], position(&kuhn, "var put", 0, 4), "{def}");
    let refs = s.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": URI }, "position": position(&kuhn, "var put", 0, 4),
                "context": { "includeDeclaration": true } }),
    );
    let code = kuhn.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    let by_hand = code.match_indices("put").filter(|(i, _)| !code[i + 3..].starts_with('s')).count();
    assert_eq!(refs.as_array().map(Vec::len), Some(by_hand), "{refs}");

    // The outline.
    let symbols = s.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } }));
    let names: Vec<&str> = symbols.as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(names, ["first", "second", "cards", "Move", "put"]);
    let variants: Vec<&str> =
        symbols[3]["children"].as_array().into_iter().flatten().filter_map(|s| s["name"].as_str()).collect();
    assert_eq!(variants, ["Pass", "Bet"]);

    // Rename `turns`: every use changes, and the result still checks.
    let edit = s.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": URI }, "position": position(&kuhn, "turns += 1", 0, 0), "newName": "count" }),
    );
    let edits = edit["changes"][URI].as_array().cloned().unwrap_or_default();
    let renamed = kuhn.replace("take_turns", "TAKE").replace("turns", "count").replace("TAKE", "take_turns");
    assert_eq!(edits.len(), kuhn.replace("take_turns", "").matches("turns").count(), "{edit}");
    let mut sources = galac_compiler::diagnostic::SourceMap::new();
    assert!(galac_compiler::compile(&mut sources, "k.gala", renamed.as_bytes()).is_ok());
    let bad = s.try_request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": URI }, "position": position(&kuhn, "turns += 1", 0, 0), "newName": "end" }),
    );
    assert!(bad["error"]["message"].as_str().unwrap_or_default().contains("not a name"), "{bad}");

    // Formatting: kuhn is formatted already; a messy copy comes back as kuhn.
    let format = json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } });
    assert_eq!(s.request("textDocument/formatting", format.clone()), json!([]));
    let mess = |l: &str| {
        if l.trim_start().starts_with("//") {
            l.to_string()
        } else {
            l.replace("    ", "  ").replace(" = ", "=")
        }
    };
    let messy = kuhn.lines().map(mess).collect::<Vec<_>>().join("\n");
    assert_ne!(messy, kuhn);
    s.change(&messy, 4);
    let edits = s.request("textDocument/formatting", format);
    assert_eq!(edits[0]["newText"].as_str(), Some(kuhn.as_str()), "{edits}");
}

#[test]
fn definitions_of_fns_enums_and_variants() {
    let src = example("liars_dice_calls.gala");
    let mut s = Session::start();
    s.change(&src, 1);
    let cases = [
        ("in calls()", 3, "fn calls", 3),
        ("push(out, Liar)", 10, "    enum Call { Bid(int, int), Liar", 31),
        ("list<Call>", 5, "    enum Call", 9),
    ];
    for (used, shift, def, def_shift) in cases {
        let got = s.request("textDocument/definition", at(&src, used, 0, shift));
        assert_eq!(got["range"]["start"], position(&src, def, 0, def_shift), "{used}: {got}");
    }
    // Nothing is defined at a keyword, and an unknown request is an error.
    assert_eq!(s.request("textDocument/definition", at(&src, "game", 0, 0)), Value::Null);
    let unknown = s.try_request("textDocument/foldingRange", json!({ "textDocument": { "uri": URI } }));
    assert!(unknown.get("error").is_some(), "{unknown}");
}
