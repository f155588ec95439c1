//! `galac lsp` over standard input and output: a scripted session of
//! JSON-RPC messages in LSP's framing (open kuhn.gala with a typo, get the
//! diagnostic at its range, hover a `choose`, go to a fn's definition in a
//! second file, format, shut down), answers read back from the framed
//! output. The language server's own tests (crate `galac-lsp`) cover each
//! request in depth.

use serde_json::{json, Value};

use crate::common::{example, galac};

fn frame(message: &Value) -> String {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

/// The messages of framed output, in order.
fn unframe(mut out: &str) -> Vec<Value> {
    let mut messages = Vec::new();
    while let Some(rest) = out.strip_prefix("Content-Length: ") {
        let (len, rest) = rest.split_once("\r\n\r\n").expect("a header");
        let len: usize = len.trim().parse().expect("a length");
        messages.push(serde_json::from_str(&rest[..len]).expect("JSON"));
        out = &rest[len..];
    }
    assert!(out.is_empty(), "unframed output: {out}");
    messages
}

/// The LSP position of the first `needle` plus `shift` bytes (ASCII text).
fn position(text: &str, needle: &str, shift: usize) -> Value {
    let at = text.find(needle).expect("needle") + shift;
    let line = text[..at].matches('\n').count();
    let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": column })
}

#[test]
fn a_scripted_session_over_stdio() {
    let kuhn = std::fs::read_to_string(example("kuhn.gala")).expect("kuhn");
    let typo = kuhn.replacen("turns += 1;", "turnz += 1;", 1);
    let calls = std::fs::read_to_string(example("liars_dice_calls.gala")).expect("liars_dice_calls");
    let (k, l) = ("file:///kuhn.gala", "file:///liars_dice_calls.gala");
    let open = |uri: &str, text: &str| {
        json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": { "textDocument": { "uri": uri, "languageId": "gala", "version": 1, "text": text } } })
    };
    let request = |id: i64, method: &str, params: Value| json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    let at = |uri: &str, p: Value| json!({ "textDocument": { "uri": uri }, "position": p });
    let script = [
        request(1, "initialize", json!({ "capabilities": {} })),
        json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
        open(k, &typo),
        request(2, "textDocument/hover", at(k, position(&typo, "choose player", 0))),
        open(l, &calls),
        request(3, "textDocument/definition", at(l, position(&calls, "in calls()", 3))),
        request(
            4,
            "textDocument/formatting",
            json!({ "textDocument": { "uri": k }, "options": { "tabSize": 4, "insertSpaces": true } }),
        ),
        request(5, "shutdown", Value::Null),
        json!({ "jsonrpc": "2.0", "method": "exit" }),
    ];
    let input: String = script.iter().map(frame).collect();
    let (status, out, err) = galac(&["lsp"], &input);
    assert_eq!(status, 0, "{err}");
    let messages = unframe(&out);
    let answer = |id: i64| messages.iter().find(|m| m["id"] == json!(id)).map(|m| m["result"].clone());

    let published =
        messages.iter().find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == k);
    let diagnostics = published.map(|m| m["params"]["diagnostics"].clone()).expect("kuhn's diagnostics");
    let range = json!({ "start": position(&typo, "turnz", 0), "end": position(&typo, "turnz", 5) });
    assert_eq!(diagnostics.as_array().map(Vec::len), Some(1), "{diagnostics}");
    assert_eq!(diagnostics[0]["range"], range, "{diagnostics}");

    let hover = answer(2).expect("a hover");
    assert!(hover["contents"]["value"].as_str().unwrap_or_default().contains("my_card(c)"), "{hover}");
    let def = answer(3).expect("a definition");
    assert_eq!(def["uri"], l);
    assert_eq!(def["range"]["start"], position(&calls, "fn calls", 3), "{def}");
    // Kuhn with a typo is formatted already: no edits.
    assert_eq!(answer(4), Some(json!([])));
    assert_eq!(answer(5), Some(Value::Null));
}
