//! Run-time values of the interpreter and their encoding as fact words
//! (the same words as `galac_runtime::value::Encode` gives compiled games).
//!
//! Scalars (`int`, `bool`, `player`, enum values, cards) are one `i64`;
//! tuples, arrays and lists are shared sequences, copied on write.

use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    Int(i64),
    Seq(Rc<Vec<Value>>),
}

/// The same words as the method below, for the runtime's helpers (such as
/// `galac_runtime::info::choice_key`).
impl galac_runtime::value::Encode for Value {
    fn encode(&self, out: &mut Vec<u64>) {
        Value::encode(self, out);
    }

    fn word(&self) -> Option<u64> {
        match self {
            Value::Int(n) => Some(*n as u64),
            Value::Seq(items) => {
                galac_runtime::value::fold_seq(items.len(), items.iter().map(galac_runtime::value::Encode::word))
            }
        }
    }
}

impl Value {
    pub fn seq(items: Vec<Value>) -> Value {
        Value::Seq(Rc::new(items))
    }

    pub fn bool(b: bool) -> Value {
        Value::Int(i64::from(b))
    }

    /// Appends the exact word encoding: a scalar is one word, a sequence is
    /// its length followed by its elements.
    pub fn encode(&self, out: &mut Vec<u64>) {
        match self {
            Value::Int(n) => out.push(*n as u64),
            Value::Seq(xs) => {
                out.push(xs.len() as u64);
                for x in xs.iter() {
                    x.encode(out);
                }
            }
        }
    }
}
