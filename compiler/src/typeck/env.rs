//! Name environments: the game's global declarations, and the local scopes of
//! the body being checked.

use std::collections::HashMap;

use super::tast::{Fact, FactId, FlowId, FnId, Local, LocalId, ParamId, VarId};
use super::types::{EnumId, Ty};
use crate::span::Span;

/// What a global name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Global {
    Player(u32),
    Param(ParamId),
    Var(VarId),
    Enum(EnumId),
    Fn(FnId),
    Flow(FlowId),
}

impl Global {
    pub fn describe(self) -> &'static str {
        match self {
            Global::Player(_) => "player",
            Global::Param(_) => "param",
            Global::Var(_) => "state variable",
            Global::Enum(_) => "enum",
            Global::Fn(_) => "function",
            Global::Flow(_) => "flow",
        }
    }
}

pub struct FnSig {
    pub params: Vec<Ty>,
    pub ret: Ty,
}

pub struct FlowSig {
    pub params: Vec<Ty>,
}

/// Everything declared at the top level of the game.
#[derive(Default)]
pub struct Env {
    pub globals: HashMap<String, (Global, Span)>,
    /// Enum variant name to its enums (more than one means bare use is ambiguous).
    pub variants: HashMap<String, Vec<(EnumId, u32)>>,
    pub players: Vec<String>,
    pub enums: Vec<super::tast::Enum>,
    pub params: Vec<(String, Ty)>,
    /// Per param, whether it is a `const`.
    pub constants: Vec<bool>,
    pub vars: Vec<(String, Ty)>,
    pub fns: Vec<FnSig>,
    pub flows: Vec<FlowSig>,
    pub facts: Vec<Fact>,
    pub fact_index: HashMap<String, (FactId, Span)>,
}

impl Env {
    pub fn param_is_constant(&self, id: super::tast::ParamId) -> bool {
        self.constants.get(id.0 as usize).copied().unwrap_or(false)
    }

    pub fn enum_ty(&self, id: EnumId) -> Ty {
        let e = &self.enums[id.0 as usize];
        match e.repr() {
            Some(repr) => Ty::Data(id, e.name.as_str().into(), repr.into()),
            None => Ty::Enum(id, e.name.as_str().into()),
        }
    }
}

/// Which declarations a body may see and what it may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// A param default: literals and earlier params.
    ParamDefault { upto: u32 },
    /// An array length in a type: literals and params.
    ArrayLen,
    /// A var initialiser: params, earlier vars and functions.
    VarInit { upto: u32 },
    /// A pure function.
    Fn,
    /// A gameflow: everything.
    Flow,
}

/// The locals of the fn or flow being checked.
pub struct Body {
    pub kind: BodyKind,
    pub locals: Vec<Local>,
    scopes: Vec<Vec<(String, LocalId)>>,
    /// The `player` locals of the enclosing take_turns loops, innermost last.
    pub turns: Vec<LocalId>,
    /// The return type, in a fn.
    pub ret: Option<Ty>,
    /// Names chosen earlier in the simultaneous move being checked: out of
    /// scope until its end, named in the error if read.
    pub hidden: Vec<String>,
    /// Per local: where it is declared (`None`: implicit, like `player`) and
    /// whether it is ever read, for the unused-name warning.
    pub declared_at: Vec<Option<crate::span::Span>>,
    pub read: Vec<bool>,
}

impl Body {
    pub fn new(kind: BodyKind) -> Body {
        Body {
            kind,
            locals: Vec::new(),
            scopes: vec![Vec::new()],
            turns: Vec::new(),
            ret: None,
            hidden: Vec::new(),
            declared_at: Vec::new(),
            read: Vec::new(),
        }
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    pub fn declare(&mut self, name: &str, ty: Ty, mutable: bool, at: Option<crate::span::Span>) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(Local { name: name.to_string(), ty, mutable });
        self.declared_at.push(at);
        self.read.push(false);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), id));
        }
        id
    }

    /// How many names the innermost scope holds, for [`Body::take_since`].
    pub fn scope_len(&self) -> usize {
        self.scopes.last().map_or(0, Vec::len)
    }

    /// Removes the names the innermost scope gained since it held `len`.
    pub fn take_since(&mut self, len: usize) -> Vec<(String, LocalId)> {
        self.scopes.last_mut().map(|s| s.split_off(len.min(s.len()))).unwrap_or_default()
    }

    /// Puts names taken by [`Body::take_since`] back in the innermost scope.
    pub fn restore(&mut self, names: Vec<(String, LocalId)>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.extend(names);
        }
    }

    pub fn lookup(&self, name: &str) -> Option<LocalId> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| n == name).map(|(_, id)| *id)
    }

    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.0 as usize]
    }

    /// Names of all locals in scope (for suggestions).
    pub fn visible_names(&self) -> impl Iterator<Item = &str> {
        self.scopes.iter().flat_map(|s| s.iter().map(|(n, _)| n.as_str()))
    }
}
