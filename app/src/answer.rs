//! Answers to the user: the output format, standard output, titles and
//! the game's params as JSON.

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
pub fn title(info: &galac_runtime::game::GameInfo) -> String {
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

/// An answer's JSON, serialised by code compiled once, in the crate that
/// implements it ([`json_answers!`]). The helpers that write answers take
/// `&dyn Json`: the commands that build answers are generic over the game,
/// and a `T: Serialize` parameter there made every compiled game's crate
/// compile serde's code for each answer type again.
pub trait Json {
    /// Writes the JSON on one line, without a newline.
    fn write_json(&self, w: &mut dyn std::io::Write) -> serde_json::Result<()>;
    /// The JSON as a value.
    fn json_value(&self) -> serde_json::Result<serde_json::Value>;
}

#[doc(hidden)]
pub use serde_json as __serde_json;

/// Implements [`Json`] for serde types (`json_answers!(A, B<'_>)`).
#[macro_export]
macro_rules! json_answers {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::answer::Json for $t {
            fn write_json(&self, w: &mut dyn std::io::Write) -> $crate::answer::__serde_json::Result<()> {
                $crate::answer::__serde_json::to_writer(w, self)
            }
            fn json_value(&self) -> $crate::answer::__serde_json::Result<$crate::answer::__serde_json::Value> {
                $crate::answer::__serde_json::to_value(self)
            }
        }
    )*};
}

json_answers!(serde_json::Value);

/// An answer's JSON on one line (no newline): `serde_json::to_string`'s
/// bytes.
pub fn json_line(answer: &dyn Json) -> serde_json::Result<String> {
    let mut bytes = Vec::new();
    answer.write_json(&mut bytes)?;
    String::from_utf8(bytes).map_err(|e| serde_json::Error::io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// Writes a JSON answer on one line to standard output; the exit status
/// (1 after the message if it cannot be written as JSON).
pub fn emit_json(answer: &dyn Json) -> i32 {
    match json_line(answer) {
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

#[cfg(test)]
mod tests {
    /// An answer written through `&dyn Json` has `serde_json::to_string`'s
    /// bytes (what the answers were written with when generic), escapes
    /// and non-ASCII text included.
    #[test]
    fn json_line_writes_serde_jsons_bytes() {
        #[derive(serde::Serialize)]
        struct Answer<'a> {
            schema: &'a str,
            label: String,
            values: Vec<f64>,
            missing: Option<u32>,
        }
        json_answers!(Answer<'_>);
        let answer = Answer {
            schema: "galac.test/1",
            label: "♠A \"quoted\"\n\\ é".into(),
            values: vec![0.5, -1e-12],
            missing: None,
        };
        let line = super::json_line(&answer).expect("serialises");
        assert_eq!(line, serde_json::to_string(&answer).expect("serialises"));
        let value = super::Json::json_value(&answer).expect("serialises");
        assert_eq!(value, serde_json::to_value(&answer).expect("serialises"));
        assert_eq!(super::json_line(&value).expect("serialises"), line);
    }
}
