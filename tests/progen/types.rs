//! The generator's view of Gala types: the checker's types plus a static
//! bound on list lengths, so that domains (and with them trees) stay small.

use super::Gen;

/// The length of a fixed array: a literal or a size param.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Len {
    Lit(usize),
    /// A param declared as an array size: its value is 1..=3 (0 when risky).
    Param(String),
}

impl Len {
    /// The largest length the array may have (size params are at most 3).
    pub fn max(&self) -> usize {
        match self {
            Len::Lit(n) => *n,
            Len::Param(_) => 3,
        }
    }

    /// The smallest length it surely has, when the program is not risky.
    pub fn min(&self) -> usize {
        match self {
            Len::Lit(n) => *n,
            Len::Param(_) => 1,
        }
    }

    pub fn text(&self) -> String {
        match self {
            Len::Lit(n) => n.to_string(),
            Len::Param(p) => p.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Bool,
    Player,
    Card,
    Enum(usize),
    Tuple(Vec<Ty>),
    Array(Box<Ty>, Len),
    PerPlayer(Box<Ty>),
    /// A list of at most this many elements.
    List(Box<Ty>, usize),
}

impl Ty {
    /// The Gala spelling of the type.
    pub fn text(&self) -> String {
        match self {
            Ty::Int => "int".into(),
            Ty::Bool => "bool".into(),
            Ty::Player => "player".into(),
            Ty::Card => "card".into(),
            Ty::Enum(i) => format!("E{i}"),
            Ty::Tuple(ts) => format!("({})", ts.iter().map(Ty::text).collect::<Vec<_>>().join(", ")),
            Ty::Array(t, n) => format!("[{}; {}]", t.text(), n.text()),
            Ty::PerPlayer(t) => format!("[player]{}", t.text()),
            Ty::List(t, _) => format!("list<{}>", t.text()),
        }
    }

    /// A value of `self` may stand where `want` is expected: same type, and
    /// list bounds no larger.
    pub fn fits(&self, want: &Ty) -> bool {
        match (self, want) {
            (Ty::Tuple(a), Ty::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.fits(y)),
            (Ty::Array(a, n), Ty::Array(b, m)) => n == m && a.fits(b),
            (Ty::PerPlayer(a), Ty::PerPlayer(b)) => a.fits(b),
            (Ty::List(a, n), Ty::List(b, m)) => n <= m && a.fits(b),
            _ => self == want,
        }
    }

    /// The element type of a sequence.
    pub fn elem(&self) -> Option<&Ty> {
        match self {
            Ty::Array(t, _) | Ty::PerPlayer(t) | Ty::List(t, _) => Some(t),
            _ => None,
        }
    }
}

impl Gen {
    /// A random scalar type.
    pub(super) fn scalar_ty(&mut self) -> Ty {
        let n_enums = self.enums.len();
        match self.rng.weighted(&[30, 15, 12, 8, if n_enums > 0 { 15 } else { 0 }]) {
            0 => Ty::Int,
            1 => Ty::Bool,
            2 => Ty::Player,
            3 => Ty::Card,
            _ => Ty::Enum(self.rng.below(n_enums)),
        }
    }

    /// A random array length: a literal 1..=3, or a size param.
    fn len(&mut self) -> Len {
        let sizes: Vec<String> = self.int_params.iter().filter(|p| p.1).map(|p| p.0.clone()).collect();
        if !sizes.is_empty() && self.rng.coin(40) {
            return Len::Param(sizes[self.rng.below(sizes.len())].clone());
        }
        Len::Lit(self.rng.range(1, 3) as usize)
    }

    /// A random type for a variable, a param or a fn result.
    pub(super) fn value_ty(&mut self) -> Ty {
        match self.rng.weighted(&[55, 8, 8, 4, 8, 10, 3, 4]) {
            0 => self.scalar_ty(),
            1 => {
                let n = self.rng.range(2, 3) as usize;
                Ty::Tuple((0..n).map(|_| self.scalar_ty()).collect())
            }
            2 => Ty::Array(Box::new(self.scalar_ty()), self.len()),
            3 => {
                // A board, for `has_line` and `count` over 2-D arrays.
                let cell = self.scalar_ty();
                Ty::Array(Box::new(Ty::Array(Box::new(cell), self.len())), self.len())
            }
            4 => Ty::PerPlayer(Box::new(self.scalar_ty())),
            5 => Ty::List(Box::new(self.scalar_ty()), self.rng.range(1, 5) as usize),
            6 => Ty::List(Box::new(Ty::Tuple(vec![Ty::Int, Ty::Int])), self.rng.range(1, 4) as usize),
            _ => {
                let inner = Ty::List(Box::new(Ty::Int), self.rng.range(1, 3) as usize);
                Ty::List(Box::new(inner), self.rng.range(1, 4) as usize)
            }
        }
    }

    /// Whether an expression of `ty` can be written where no type is
    /// expected (arrays need a variable or a fn of that type).
    pub(super) fn can_untyped(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Tuple(ts) => ts.iter().all(|t| self.can_untyped(t)),
            Ty::List(t, n) => *n >= 1 && self.can_untyped(t),
            Ty::PerPlayer(t) if self.feat.player_fills => self.can_untyped(t),
            Ty::Array(..) | Ty::PerPlayer(_) => {
                self.visible().any(|v| v.ty.fits(ty)) || self.callable().any(|f| f.ret.fits(ty))
            }
            _ => true,
        }
    }
}
