//! Expressions of a requested type. `typed` says whether the checker knows
//! the expected type at that place (a `let` with a type, an argument, an
//! assignment): only there may an empty list or an array literal appear.
//! Every compound expression is parenthesised, so precedence never matters.

use super::types::{Len, Ty};
use super::{FnSig, Gen, Var};

impl Gen {
    /// The variables visible here: locals, and state vars outside fns.
    pub(super) fn visible(&self) -> impl Iterator<Item = &Var> {
        let vars = if self.in_fn { &self.vars[..0] } else { &self.vars[..] };
        self.locals.iter().chain(vars.iter())
    }

    /// The fns callable here.
    pub(super) fn callable(&self) -> impl Iterator<Item = &FnSig> {
        self.fns[..self.fn_limit].iter()
    }

    fn pick_var(&mut self, ty: &Ty) -> Option<String> {
        let names: Vec<String> = self.visible().filter(|v| v.ty.fits(ty)).map(|v| v.name.clone()).collect();
        (!names.is_empty()).then(|| names[self.rng.below(names.len())].clone())
    }

    fn call(&mut self, ty: &Ty, d: u32) -> Option<String> {
        let fits: Vec<FnSig> = self.callable().filter(|f| f.ret.fits(ty)).cloned().collect();
        if fits.is_empty() {
            return None;
        }
        let f = fits[self.rng.below(fits.len())].clone();
        let args: Vec<String> = f.params.iter().map(|p| self.expr(p, d.saturating_sub(1), true)).collect();
        Some(format!("{}({})", f.name, args.join(", ")))
    }

    /// An expression of type `ty`, nested at most `d` levels.
    pub(super) fn expr(&mut self, ty: &Ty, d: u32, typed: bool) -> String {
        if self.rng.coin(if d == 0 { 60 } else { 25 }) {
            if let Some(v) = self.pick_var(ty) {
                return v;
            }
        }
        if d > 0 {
            if self.rng.coin(7) {
                if let Some(c) = self.call(ty, d) {
                    return c;
                }
            }
            if self.rng.coin(6) {
                let c = self.expr(&Ty::Bool, d - 1, true);
                let a = self.expr(ty, d - 1, typed);
                let b = self.expr(ty, d - 1, true);
                return format!("(if {c} then {a} else {b})");
            }
            if self.rng.coin(6) {
                if let Some(e) = self.element_of(ty, d) {
                    return e;
                }
            }
        }
        match ty {
            Ty::Int => self.int(d),
            Ty::Bool => self.boolean(d),
            Ty::Player => self.player(d),
            Ty::Card => self.card(d),
            Ty::Enum(i) => self.variant(*i),
            Ty::Tuple(ts) => {
                if ts[..] == [Ty::Int, Ty::Int] && self.rng.coin(20) {
                    let (r, c) = (self.rng.range(1, 3), self.rng.range(1, 3));
                    let k = self.rng.range(0, r * c - 1);
                    return format!("cells({r}, {c})[{k}]");
                }
                let parts: Vec<String> = ts.iter().map(|t| self.expr(t, d.saturating_sub(1), typed)).collect();
                format!("({})", parts.join(", "))
            }
            Ty::Array(t, len) => self.array(t, len, d, typed),
            Ty::PerPlayer(t) => {
                if !self.feat.player_fills && !typed {
                    if let Some(v) = self.pick_var(ty).or_else(|| self.call(ty, d)) {
                        return v;
                    }
                }
                if typed && (self.rng.coin(50) || !self.feat.player_fills) {
                    let n = self.n_players();
                    let items: Vec<String> = (0..n).map(|_| self.expr(t, d.saturating_sub(1), true)).collect();
                    return format!("[{}]", items.join(", "));
                }
                format!("[{}; players]", self.expr(t, d.saturating_sub(1), typed))
            }
            Ty::List(t, n) => self.list(t, *n, d, typed),
        }
    }

    /// An element of a sequence variable, or a field of a tuple, of type `ty`.
    fn element_of(&mut self, ty: &Ty, d: u32) -> Option<String> {
        let seqs: Vec<Var> = self.visible().filter(|v| v.ty.elem().is_some_and(|e| e.fits(ty))).cloned().collect();
        if !seqs.is_empty() && self.rng.coin(70) {
            let v = seqs[self.rng.below(seqs.len())].clone();
            return Some(self.index(&v.name, &v.ty, d));
        }
        if !self.can_untyped(ty) {
            return None;
        }
        let mut parts: Vec<Ty> = (0..self.rng.range(1, 2)).map(|_| self.scalar_ty()).collect();
        let k = self.rng.below(parts.len() + 1);
        parts.insert(k, ty.clone());
        let base = self.expr(&Ty::Tuple(parts), d - 1, false);
        Some(format!("({base}).{k}"))
    }

    /// `base[i]` with an index that is in bounds unless the program is risky.
    pub(super) fn index(&mut self, base: &str, ty: &Ty, d: u32) -> String {
        let d = d.saturating_sub(1);
        match ty {
            Ty::PerPlayer(_) => format!("{base}[{}]", self.expr(&Ty::Player, d, true)),
            _ if self.risky() => format!("{base}[{}]", self.expr(&Ty::Int, d, true)),
            Ty::Array(_, len) if len.min() > 0 => format!("{base}[{}]", self.rng.below(len.min())),
            _ => {
                let k = self.rng.range(0, 2);
                let dflt = self.expr(ty.elem().unwrap_or(&Ty::Int), d, true);
                format!("(if len({base}) > {k} then {base}[{k}] else {dflt})")
            }
        }
    }

    pub(super) fn int_lit(&mut self) -> String {
        if self.risky() && self.rng.coin(30) {
            let big = ["9223372036854775807", "4611686018427387904", "3037000500", "(-9223372036854775807 - 1)"];
            return big[self.rng.below(big.len())].to_string();
        }
        match self.rng.weighted(&[70, 15, 10, 5]) {
            0 => self.rng.range(0, 5).to_string(),
            1 => format!("(-{})", self.rng.range(1, 5)),
            2 => self.rng.range(6, 100).to_string(),
            _ => "1_000".to_string(),
        }
    }

    fn int(&mut self, d: u32) -> String {
        let n_params = self.int_params.len();
        if d == 0 {
            if n_params > 0 && self.rng.coin(25) {
                return self.int_params[self.rng.below(n_params)].0.clone();
            }
            return self.int_lit();
        }
        let d1 = d - 1;
        match self.rng.weighted(&[10, 30, 6, 8, 6, 5, 5, 3, 4, 6]) {
            0 => self.int(0),
            1 => {
                let ops = ["+", "-", "*", "/", "%"];
                let op = ops[self.rng.weighted(&[10, 8, 5, 2, 2])];
                let a = self.expr(&Ty::Int, d1, true);
                let b = match (op == "/" || op == "%", self.risky()) {
                    (true, false) => ["1", "2", "3", "(-2)", "7"][self.rng.below(5)].to_string(),
                    (true, true) if self.rng.coin(40) => format!("({a} - {a})"),
                    (false, true) if self.rng.coin(40) => {
                        ["9223372036854775807", "3037000500"][self.rng.below(2)].into()
                    }
                    _ => self.expr(&Ty::Int, d1, true),
                };
                format!("({a} {op} {b})")
            }
            2 => format!("(-{})", self.expr(&Ty::Int, d1, true)),
            3 => {
                let f = ["abs", "min", "max"][self.rng.below(3)];
                let a = self.expr(&Ty::Int, d1, true);
                if f == "abs" {
                    return format!("abs({a})");
                }
                format!("{f}({a}, {})", self.expr(&Ty::Int, d1, true))
            }
            4 => format!("len({})", self.any_seq(d1).0),
            5 => format!("sum({})", self.seq_of(&Ty::Int, d1)),
            6 => {
                let (s, t) = self.any_seq(d1);
                let elem = t.elem().cloned().unwrap_or(Ty::Int);
                let inner = elem.elem().cloned().filter(|_| matches!(elem, Ty::Array(..)) && self.rng.coin(50));
                // A cell of a 2-D array is checked against the row type
                // first: only a leaf (no `if`, no call) passes for a cell.
                let x = match &inner {
                    Some(cell) => self.expr(cell, 0, true),
                    None => self.expr(&elem, d1, true),
                };
                format!("count({s}, {x})")
            }
            7 => format!("index({})", self.expr(&Ty::Player, d1, true)),
            8 => {
                let f = ["rank", "suit"][self.rng.below(2)];
                format!("{f}({})", self.expr(&Ty::Card, d1, true))
            }
            _ => self.expr(&Ty::Int, d1, true),
        }
    }

    fn boolean(&mut self, d: u32) -> String {
        if d == 0 {
            if !self.bool_params.is_empty() && self.rng.coin(25) {
                return self.bool_params[self.rng.below(self.bool_params.len())].clone();
            }
            return ["true", "false"][self.rng.below(2)].to_string();
        }
        let d1 = d - 1;
        match self.rng.weighted(&[5, 25, 20, 15, 8, 8, 4]) {
            0 => self.boolean(0),
            1 => {
                let op = ["<", "<=", ">", ">="][self.rng.below(4)];
                format!("({} {op} {})", self.expr(&Ty::Int, d1, true), self.expr(&Ty::Int, d1, true))
            }
            2 => {
                let mut t = self.value_ty();
                if !self.can_untyped(&t) {
                    t = self.scalar_ty();
                }
                let op = ["==", "!="][self.rng.below(2)];
                format!("({} {op} {})", self.expr(&t, d1, false), self.expr(&t, d1, true))
            }
            3 => {
                let op = ["&&", "||"][self.rng.below(2)];
                format!("({} {op} {})", self.expr(&Ty::Bool, d1, true), self.expr(&Ty::Bool, d1, true))
            }
            4 => format!("(!{})", self.expr(&Ty::Bool, d1, true)),
            5 => {
                let (s, t) = self.any_seq(d1);
                let x = self.expr(t.elem().unwrap_or(&Ty::Int), d1, true);
                format!("contains({s}, {x})")
            }
            _ => self.has_line(d1),
        }
    }

    /// `has_line` over a 2-D array variable, or a literal list of lists.
    fn has_line(&mut self, d: u32) -> String {
        let boards: Vec<Var> = self
            .visible()
            .filter(|v| matches!(&v.ty, Ty::Array(inner, _) if matches!(**inner, Ty::Array(..))))
            .cloned()
            .collect();
        let k = if self.risky() { self.expr(&Ty::Int, d, true) } else { self.rng.range(1, 3).to_string() };
        if let Some(b) = (!boards.is_empty()).then(|| boards[self.rng.below(boards.len())].clone()) {
            let cell = b.ty.elem().and_then(Ty::elem).cloned().unwrap_or(Ty::Int);
            return format!("has_line({}, {k}, {})", b.name, self.expr(&cell, d, true));
        }
        let (r, c) = (self.rng.range(1, 3), self.rng.range(1, 3));
        let rows: Vec<String> = (0..r)
            .map(|_| format!("[{}]", (0..c).map(|_| self.rng.range(0, 1).to_string()).collect::<Vec<_>>().join(", ")))
            .collect();
        format!("has_line([{}], {k}, {})", rows.join(", "), self.rng.range(0, 1))
    }

    fn player(&mut self, d: u32) -> String {
        let n = self.n_players();
        if self.turns > 0 && self.rng.coin(35) {
            return ["player", "opponent"][self.rng.below(2)].to_string();
        }
        if d == 0 || self.rng.coin(40) {
            return self.players[self.rng.below(n)].clone();
        }
        match self.rng.weighted(&[40, 20]) {
            0 => format!("next({})", self.expr(&Ty::Player, d - 1, true)),
            _ => {
                let i = if self.risky() { self.expr(&Ty::Int, d - 1, true) } else { self.rng.below(n).to_string() };
                format!("players[{i}]")
            }
        }
    }

    fn card(&mut self, d: u32) -> String {
        if d > 0 && self.risky() {
            return format!("card({}, {})", self.expr(&Ty::Int, d - 1, true), self.expr(&Ty::Int, d - 1, true));
        }
        if self.rng.coin(25) {
            let (r, s) = (self.rng.range(1, 3), self.rng.range(1, 3));
            return format!("deck({r}, {s})[{}]", self.rng.range(0, r * s - 1));
        }
        format!("card({}, {})", self.rng.range(0, 4), self.rng.range(0, 3))
    }

    /// A variant of enum `i`; large enums favour their high values.
    pub(super) fn variant(&mut self, i: usize) -> String {
        let vs = &self.enums[i];
        let k = if vs.len() > 256 && self.rng.coin(50) {
            self.rng.range(250, vs.len() as i64 - 1) as usize
        } else {
            self.rng.below(vs.len())
        };
        let v = vs[k].clone();
        if self.rng.coin(30) {
            return format!("E{i}::{v}");
        }
        v
    }

    fn array(&mut self, t: &Ty, len: &Len, d: u32, typed: bool) -> String {
        if !typed {
            if let Some(v) = self.pick_var(&Ty::Array(Box::new(t.clone()), len.clone())) {
                return v;
            }
            if let Some(c) = self.call(&Ty::Array(Box::new(t.clone()), len.clone()), d) {
                return c;
            }
        }
        let d1 = d.saturating_sub(1);
        match len {
            Len::Lit(n) if self.rng.coin(50) => {
                let items: Vec<String> = (0..*n).map(|_| self.expr(t, d1, true)).collect();
                format!("[{}]", items.join(", "))
            }
            _ => format!("[{}; {}]", self.expr(t, d1, true), len.text()),
        }
    }

    fn list(&mut self, t: &Ty, n: usize, d: u32, typed: bool) -> String {
        let d1 = d.saturating_sub(1);
        let same: Vec<Var> = self.visible().filter(|v| v.ty.fits(&Ty::List(Box::new(t.clone()), n))).cloned().collect();
        let choice = self.rng.weighted(&[
            if typed { 10 } else { 0 },
            40,
            if *t == Ty::Int { 25 } else { 0 },
            if d > 0 && n >= 2 && self.can_untyped(t) { 8 } else { 0 },
            if d > 0 && self.can_untyped(t) { 8 } else { 0 },
            if d == 0 || same.is_empty() { 0 } else { 8 },
            12,
        ]);
        match choice {
            0 => "[]".to_string(),
            1 => {
                let k = self.rng.range(1, n as i64);
                let items: Vec<String> = (0..k).map(|j| self.expr(t, d1, typed || j > 0)).collect();
                format!("[{}]", items.join(", "))
            }
            2 => self.range(n, d1),
            3 => {
                let xs = self.list(t, n - 1, d1, false);
                format!("push({xs}, {})", self.expr(t, d1, true))
            }
            4 => {
                let xs = self.list(t, n, d1, false);
                let f = ["remove", "sort"][self.rng.below(2)];
                if f == "sort" {
                    return format!("sort({xs})");
                }
                format!("remove({xs}, {})", self.expr(t, d1, true))
            }
            5 => {
                let v = same[self.rng.below(same.len())].name.clone();
                format!("(if len({v}) < {n} then push({v}, {}) else {v})", self.expr(t, d1, true))
            }
            _ => self.special_list(t, n, d1, typed),
        }
    }

    /// Lists from builtins: a deck, cells, the players, combinations.
    fn special_list(&mut self, t: &Ty, n: usize, d: u32, typed: bool) -> String {
        match t {
            Ty::Card if n >= 1 => {
                let r = self.rng.range(1, n.min(3) as i64);
                let s = self.rng.range(1, (n as i64 / r).clamp(1, 3));
                format!("deck({r}, {s})")
            }
            Ty::Tuple(ts) if ts[..] == [Ty::Int, Ty::Int] && n >= 1 => {
                let r = self.rng.range(1, n.min(3) as i64);
                format!("cells({r}, {})", self.rng.range(1, (n as i64 / r).clamp(1, 3)))
            }
            Ty::Player if self.n_players() <= n => "players".to_string(),
            Ty::List(u, k) if n >= 1 => {
                // C(m, j) <= n elements of j <= k values each.
                let m = self.rng.range(1, 4) as usize;
                let j = self.rng.range(0, m.min(*k) as i64) as usize;
                let c = (0..j).fold(1usize, |acc, i| acc * (m - i) / (i + 1));
                if c > n || !self.can_untyped(u) {
                    let x = self.expr(t, 0, typed);
                    return format!("[{x}]");
                }
                let xs = self.list(u, m, d, false);
                let j = if self.risky() { self.expr(&Ty::Int, d, true) } else { j.to_string() };
                format!("combinations({xs}, {j})")
            }
            _ => {
                let k = self.rng.range(1, n as i64);
                let items: Vec<String> = (0..k).map(|j| self.expr(t, d, typed || j > 0)).collect();
                format!("[{}]", items.join(", "))
            }
        }
    }

    /// A range of at most `n` ints.
    fn range(&mut self, n: usize, d: u32) -> String {
        let n = n as i64;
        match self.rng.weighted(&[40, 25, 20, 15]) {
            0 => format!("0..{}", self.rng.range(0, n)),
            1 => {
                let lo = self.rng.range(-3, 3);
                format!("{lo}..={}", lo + self.rng.range(0, n - 1))
            }
            2 => {
                let lo = self.int(0);
                format!("{lo}..({lo} + {})", self.rng.range(0, n))
            }
            _ => format!("0..min({}, {})", self.expr(&Ty::Int, d, true), self.rng.range(0, n)),
        }
    }

    /// A sequence of any kind that needs no expected type, with its type.
    pub(super) fn any_seq(&mut self, d: u32) -> (String, Ty) {
        let seqs: Vec<Var> = self.visible().filter(|v| v.ty.elem().is_some()).cloned().collect();
        if !seqs.is_empty() && self.rng.coin(50) {
            let v = seqs[self.rng.below(seqs.len())].clone();
            return (v.name, v.ty);
        }
        let mut t = self.scalar_ty();
        if self.rng.coin(20) {
            t = Ty::Tuple(vec![Ty::Int, Ty::Int]);
        }
        let n = self.rng.range(1, 4) as usize;
        (self.list(&t, n, d, false), Ty::List(Box::new(t), n))
    }

    /// A sequence of `elem` values that needs no expected type.
    fn seq_of(&mut self, elem: &Ty, d: u32) -> String {
        let seqs: Vec<String> =
            self.visible().filter(|v| v.ty.elem().is_some_and(|e| e == elem)).map(|v| v.name.clone()).collect();
        if !seqs.is_empty() && self.rng.coin(50) {
            return seqs[self.rng.below(seqs.len())].clone();
        }
        self.list(elem, 4, d, false)
    }
}
