//! Answers to the user: the output format, standard output, titles and
//! the game's params as JSON.

use galac_runtime::game::Game;

/// Output format of `tree` and `solve`.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

/// Writes to standard output; a closed pipe (`... | head`) is not an error
/// worth a panic, so write errors are ignored.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// "name (k=v, ...)" for titles.
pub fn title<G: Game>(game: &G) -> String {
    let info = game.info();
    if info.params.is_empty() {
        info.name.clone()
    } else {
        let params: Vec<String> = info.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{} ({})", info.name, params.join(", "))
    }
}

/// The game's params as JSON: integers as numbers, `true` and `false` as
/// booleans, other values as text.
pub fn params_json(info: &galac_runtime::game::GameInfo) -> serde_json::Value {
    info.params
        .iter()
        .map(|(k, v)| {
            let value = v.parse::<i64>().map(serde_json::Value::from).unwrap_or_else(|_| match v.as_str() {
                "true" => serde_json::Value::Bool(true),
                "false" => serde_json::Value::Bool(false),
                _ => serde_json::Value::String(v.clone()),
            });
            (k.clone(), value)
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// Writes a JSON answer on one line to standard output; the exit status
/// (1 after the message if it cannot be written as JSON).
pub fn emit_json(answer: &impl serde::Serialize) -> i32 {
    match serde_json::to_string(answer) {
        Ok(line) => {
            emit(&format!("{line}\n"));
            0
        }
        Err(e) => {
            eprintln!("error: the answer cannot be written as JSON: {e}");
            1
        }
    }
}
