//! Param overrides on the command line (`--param name=value`), parsed the
//! same way by galac and by every compiled solver.

/// A param's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    Int(i64),
    Bool(bool),
}

impl std::fmt::Display for ParamValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamValue::Int(n) => write!(f, "{n}"),
            ParamValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A param of a game: its name, whether it is a `bool` (else `int`), and
/// whether it is a constant (`const`), which no override may set.
pub struct ParamSpec<'a> {
    pub name: &'a str,
    pub is_bool: bool,
    pub constant: bool,
}

/// Parses `name=value` overrides; the result holds, per param, the value
/// given for it or `None`. A param given twice is an error: silently
/// keeping one of two values would solve a game the user did not ask for.
pub fn parse_overrides(game: &str, params: &[ParamSpec], args: &[String]) -> Result<Vec<Option<ParamValue>>, String> {
    let mut out: Vec<Option<ParamValue>> = vec![None; params.len()];
    for arg in args {
        let Some((name, value)) = arg.split_once('=') else {
            return Err(format!("param override `{arg}`: expected `name=value`"));
        };
        let (name, value) = (name.trim(), value.trim());
        let Some(idx) = params.iter().position(|p| p.name == name) else {
            let known: Vec<&str> = params.iter().filter(|p| !p.constant).map(|p| p.name).collect();
            let list = if known.is_empty() {
                format!("game `{game}` has no params")
            } else {
                format!("its params are: {}", known.join(", "))
            };
            return Err(format!("param override `{arg}`: game `{game}` has no param `{name}`; {list}"));
        };
        if params[idx].constant {
            return Err(format!(
                "param override `{arg}`: `{name}` is a constant of game `{game}` (`const`), not a param; it cannot be set"
            ));
        }
        if out[idx].is_some() {
            return Err(format!("param override `{arg}`: `{name}` is set twice"));
        }
        out[idx] = Some(if params[idx].is_bool {
            match value {
                "true" => ParamValue::Bool(true),
                "false" => ParamValue::Bool(false),
                _ => return Err(format!("param override `{arg}`: `{name}` is a bool; give `true` or `false`")),
            }
        } else {
            match value.replace('_', "").parse::<i64>() {
                Ok(n) => ParamValue::Int(n),
                Err(_) => {
                    return Err(format!(
                        "param override `{arg}`: `{name}` is an int; `{value}` is not a 64-bit integer"
                    ))
                }
            }
        });
    }
    Ok(out)
}
