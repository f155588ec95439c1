//! Statements of flows and fns. The tree stays small because every
//! `choose` divides the budget (the leaf multiplier left) by its domain's
//! size, a loop's body gets the budget's k-th root for k iterations, and the
//! branches of an `if` each start from the same budget.

use super::types::Ty;
use super::{Gen, Var};

/// A domain of `choose` or `for`, with at most `size` values.
pub(super) struct Domain {
    text: String,
    elem: Ty,
    size: usize,
    /// An element surely present, to keep `where` filters satisfiable.
    witness: Option<String>,
}

impl Gen {
    /// Declares a local in the current body.
    pub(super) fn declare(&mut self, name: &str, ty: Ty, mutable: bool) {
        self.locals.push(Var { name: name.to_string(), ty, mutable });
    }

    /// Runs `f` in a nested scope: the locals it declares go out of scope.
    fn scoped<T>(&mut self, f: impl FnOnce(&mut Gen) -> T) -> T {
        let mark = self.locals.len();
        let out = f(self);
        self.locals.truncate(mark);
        out
    }

    /// A block of up to `n` statements at nesting `depth`, indented by `ind`.
    pub(super) fn block(&mut self, n: usize, depth: u32, ind: usize) -> String {
        self.scoped(|g| {
            let mut out = String::new();
            for _ in 0..n {
                out += &g.stmt(depth, ind);
            }
            if let Some(ret) = g.ret.clone().filter(|_| depth > 0 && g.rng.coin(20)) {
                out += &format!("{}return {};\n", " ".repeat(ind), g.expr(&ret, 2, true));
            } else if !g.in_fn && depth > 0 && g.rng.coin(3) {
                out += &format!("{}return;\n", " ".repeat(ind));
            } else if !g.in_fn && g.rng.coin(if depth == 0 { 50 } else { 12 }) {
                out += &g.leaf_stmt(ind);
            }
            out
        })
    }

    /// `outcome` or `end`: a leaf.
    fn leaf_stmt(&mut self, ind: usize) -> String {
        let pad = " ".repeat(ind);
        if self.rng.coin(60) {
            let want = Ty::PerPlayer(Box::new(Ty::Int));
            return format!("{pad}outcome {};\n", self.expr(&want, 2, true));
        }
        format!("{pad}end;\n")
    }

    fn stmt(&mut self, depth: u32, ind: usize) -> String {
        let pad = " ".repeat(ind);
        let deep = depth < 3;
        let events = !self.in_fn;
        let w = [
            15,
            15,
            if events { 14 } else { 0 },
            if events { 10 } else { 0 },
            if events { 8 } else { 0 },
            if events { 7 } else { 0 },
            if deep { 9 } else { 0 },
            if deep { 9 } else { 0 },
            if events && !self.flows.is_empty() { 6 } else { 0 },
        ];
        match self.rng.weighted(&w) {
            0 => self.let_stmt(&pad),
            1 => self.assign(&pad).unwrap_or_else(|| self.let_stmt(&pad)),
            2 => self.choose_player(&pad),
            3 => self.choose_nature(&pad),
            4 => self.reveal(&pad),
            5 => {
                let op = ["+=", "-="][self.rng.below(2)];
                format!("{pad}payoff {} {op} {};\n", self.actor(), self.expr(&Ty::Int, 2, true))
            }
            6 => self.if_stmt(depth, ind),
            7 => self.loop_stmt(depth, ind),
            _ => self.flow_call(&pad),
        }
    }

    fn let_stmt(&mut self, pad: &str) -> String {
        let name = self.fresh_local();
        if self.feat.deep_exprs && self.rng.coin(1) {
            // A chain up to the checker's bound (256 levels, where the
            // generated Rust still compiles; deeper is a located error).
            let n = self.rng.range(150, 240);
            let mut e = self.int_lit();
            for _ in 0..n {
                let op = ["+", "-"][self.rng.below(2)];
                e = format!("({e} {op} {})", self.rng.range(0, 3));
            }
            self.declare(&name, Ty::Int, true);
            return format!("{pad}let {name} = {e};\n");
        }
        if self.feat.deep_bool_exprs && self.rng.coin(1) {
            let e = self.deep_bool();
            self.declare(&name, Ty::Bool, true);
            return format!("{pad}let {name} = {e};\n");
        }
        let ty = self.value_ty();
        let text = if self.can_untyped(&ty) && self.rng.coin(40) {
            format!("{pad}let {name} = {};\n", self.expr(&ty, 3, false))
        } else {
            format!("{pad}let {name}: {} = {};\n", ty.text(), self.expr(&ty, 3, true))
        };
        self.declare(&name, ty, true);
        text
    }

    /// A condition up to the checker's bound of 256 levels: `!`, `&&` or
    /// `if` chains (rustc overflowed its stack on the Rust of `!` x 900,
    /// `&&` x 900 and `if` x 600, which the checker now rejects).
    fn deep_bool(&mut self) -> String {
        let shape = self.rng.below(3);
        let n = self.rng.range(150, 240);
        let mut e = self.expr(&Ty::Bool, 1, true);
        for _ in 0..n {
            e = match shape {
                0 => format!("(!{e})"),
                1 => format!("({e} && true)"),
                _ => format!("(if {e} then false else true)"),
            };
        }
        e
    }

    /// An assignment to a mutable variable or one of its elements.
    fn assign(&mut self, pad: &str) -> Option<String> {
        let vars: Vec<Var> = self.visible().filter(|v| v.mutable).cloned().collect();
        if vars.is_empty() {
            return None;
        }
        let v = vars[self.rng.below(vars.len())].clone();
        let (mut place, mut ty) = (v.name.clone(), v.ty.clone());
        while self.rng.coin(60) {
            let (idx, elem) = match &ty {
                Ty::PerPlayer(t) => (self.expr(&Ty::Player, 1, true), (**t).clone()),
                Ty::Array(t, len) if len.min() > 0 && !self.risky() => {
                    (self.rng.below(len.min()).to_string(), (**t).clone())
                }
                Ty::Array(t, _) | Ty::List(t, _) if self.risky() => (self.expr(&Ty::Int, 1, true), (**t).clone()),
                _ => break,
            };
            place = format!("{place}[{idx}]");
            ty = elem;
        }
        if ty == Ty::Int && self.rng.coin(50) {
            let op = ["+=", "-=", "*="][self.rng.weighted(&[5, 4, 1])];
            return Some(format!("{pad}{place} {op} {};\n", self.expr(&Ty::Int, 2, true)));
        }
        Some(format!("{pad}{place} = {};\n", self.expr(&ty, 3, true)))
    }

    fn if_stmt(&mut self, depth: u32, ind: usize) -> String {
        let pad = " ".repeat(ind);
        let start = self.budget;
        let mut left = f64::MAX;
        let mut out = format!("{pad}if {} {{\n", self.expr(&Ty::Bool, 3, true));
        let n = self.rng.range(1, 3) as usize;
        out += &self.block(n, depth + 1, ind + 4);
        left = left.min(self.budget);
        while self.rng.coin(25) {
            self.budget = start;
            out += &format!("{pad}}} else if {} {{\n", self.expr(&Ty::Bool, 2, true));
            out += &self.block(n, depth + 1, ind + 4);
            left = left.min(self.budget);
        }
        if self.rng.coin(60) {
            self.budget = start;
            out += &format!("{pad}}} else {{\n");
            out += &self.block(n, depth + 1, ind + 4);
            left = left.min(self.budget);
        }
        self.budget = left;
        out + &format!("{pad}}}\n")
    }

    /// The body of a loop run at most `k` times: it gets the budget's k-th
    /// root, and the loop spends what the body spent, k times.
    fn loop_body(&mut self, k: usize, depth: u32, ind: usize, tail: &str) -> String {
        let start = self.budget;
        let share = start.powf(1.0 / k.max(1) as f64).floor().max(1.0);
        self.budget = share;
        let n = self.rng.range(1, 3) as usize;
        let body = self.block(n, depth + 1, ind + 4);
        let spent = share / self.budget.max(1e-9);
        self.budget = start / spent.powi(k as i32);
        body + tail
    }

    fn loop_stmt(&mut self, depth: u32, ind: usize) -> String {
        let pad = " ".repeat(ind);
        let k = self.rng.range(1, 3) as usize;
        let kind = self.rng.weighted(&[30, 20, 20, if self.in_fn { 0 } else { 30 }]);
        if kind == 0 {
            let Some(d) = self.domain(4, 1) else { return String::new() };
            return self.scoped(|g| {
                let pat = g.pattern(&d.elem);
                let head = format!("{pad}for {pat} in {} {{\n", d.text);
                head + &g.loop_body(d.size, depth, ind, &format!("{pad}}}\n"))
            });
        }
        let c = self.fresh_local();
        let count = format!("{pad}    {c} += 1;\n");
        let mut out = format!("{pad}let {c} = 0;\n");
        // The counter is read-only for the body, so the loop surely ends.
        self.declare(&c, Ty::Int, false);
        match kind {
            1 => {
                out += &format!("{pad}while {c} < {k} && {} {{\n", self.expr(&Ty::Bool, 2, true));
                out += &self.loop_body(k, depth, ind, &format!("{count}{pad}}}\n"));
            }
            2 => {
                out += &format!("{pad}repeat {{\n");
                out += &self.loop_body(k, depth, ind, &format!("{count}{pad}}}"));
                out += &format!(" until {c} >= {k} || {};\n", self.expr(&Ty::Bool, 2, true));
            }
            _ => {
                out += &format!("{pad}take_turns({}) {{\n", self.actor());
                self.turns += 1;
                let unless = self.rng.coin(30).then(|| self.expr(&Ty::Bool, 2, true));
                out += &self.loop_body(k, depth, ind, &format!("{count}{pad}}}"));
                if let Some(u) = unless {
                    out += &format!(" unless {u}");
                }
                out += &format!(" until {c} >= {k} || {};\n", self.expr(&Ty::Bool, 2, true));
                self.turns -= 1;
            }
        }
        out
    }

    fn flow_call(&mut self, pad: &str) -> String {
        let budget = self.budget;
        let fits: Vec<usize> = (0..self.flows.len()).filter(|i| self.flows[*i].cost <= budget).collect();
        if fits.is_empty() {
            return String::new();
        }
        let f = self.flows[fits[self.rng.below(fits.len())]].clone();
        self.budget /= f.cost;
        let args: Vec<String> = f.params.iter().map(|p| self.expr(p, 2, true)).collect();
        format!("{pad}{}({});\n", f.name, args.join(", "))
    }

    /// A chooser or receiver: a bare name, `player`, an index, or parenthesised.
    pub(super) fn actor(&mut self) -> String {
        let owners: Vec<String> = self
            .visible()
            .filter(|v| matches!(&v.ty, Ty::PerPlayer(t) if **t == Ty::Player))
            .map(|v| v.name.clone())
            .collect();
        match self.rng.weighted(&[50, if self.turns > 0 { 30 } else { 0 }, 10, if owners.is_empty() { 0 } else { 5 }]) {
            0 => self.pick_named_player(),
            1 => ["player", "opponent"][self.rng.below(2)].to_string(),
            2 => format!("({})", self.expr(&Ty::Player, 2, true)),
            _ => {
                let o = owners[self.rng.below(owners.len())].clone();
                format!("{o}[{}]", self.expr(&Ty::Player, 1, true))
            }
        }
    }

    fn pick_named_player(&mut self) -> String {
        let locals: Vec<String> = self.visible().filter(|v| v.ty == Ty::Player).map(|v| v.name.clone()).collect();
        if !locals.is_empty() && self.rng.coin(30) {
            return locals[self.rng.below(locals.len())].clone();
        }
        self.players[self.rng.below(self.n_players())].clone()
    }

    /// A pattern for values of `elem`, binding fresh read-only names.
    fn pattern(&mut self, elem: &Ty) -> String {
        if let Ty::Tuple(ts) = elem {
            if self.rng.coin(70) {
                let parts: Vec<String> = ts.clone().iter().map(|t| self.pattern(t)).collect();
                return format!("({})", parts.join(", "));
            }
        }
        let name = self.fresh_local();
        self.declare(&name, elem.clone(), false);
        name
    }

    /// A domain of at most `max` values (none when `max` is 0).
    pub(super) fn domain(&mut self, max: usize, d: u32) -> Option<Domain> {
        if max == 0 {
            return None;
        }
        let n = self.n_players();
        let risky = self.in_fn || self.risky();
        let enums: Vec<usize> = (0..self.enums.len()).filter(|i| self.enums[*i].len() <= max).collect();
        let seqs: Vec<Var> = self
            .visible()
            .filter(|v| match &v.ty {
                Ty::Array(_, len) => len.max() <= max,
                Ty::PerPlayer(_) => n <= max,
                // A list may be empty: only a risky choice picks from one.
                Ty::List(_, k) => *k <= max && risky,
                _ => false,
            })
            .cloned()
            .collect();
        let w = [
            if enums.is_empty() { 0 } else { 20 },
            if max >= 2 { 10 } else { 0 },
            if n <= max { 10 } else { 0 },
            25,
            15,
            if seqs.is_empty() { 0 } else { 15 },
            if max >= 4 && d > 0 { 8 } else { 0 },
        ];
        Some(match self.rng.weighted(&w) {
            0 => {
                let i = enums[self.rng.below(enums.len())];
                let witness = Some(self.enums[i][0].clone());
                Domain { text: format!("E{i}"), elem: Ty::Enum(i), size: self.enums[i].len(), witness }
            }
            1 => Domain { text: "bool".into(), elem: Ty::Bool, size: 2, witness: Some("true".into()) },
            2 => Domain { text: "players".into(), elem: Ty::Player, size: n, witness: Some(self.players[0].clone()) },
            3 => {
                let k = self.rng.range(1, max.min(5) as i64);
                Domain { text: format!("0..{k}"), elem: Ty::Int, size: k as usize, witness: Some("0".into()) }
            }
            4 if !self.risky() => {
                let t = self.scalar_ty();
                let k = self.rng.range(1, max.min(4) as i64) as usize;
                let items: Vec<String> = (0..k).map(|j| self.expr(&t, 1, j > 0)).collect();
                let witness = Some(items[0].clone());
                Domain { text: format!("[{}]", items.join(", ")), elem: Ty::List(Box::new(t), k), size: k, witness }
                    .list_elem()
            }
            4 => {
                let (t, k) = (self.scalar_ty(), self.rng.range(1, max.min(4) as i64) as usize);
                let text = self.expr(&Ty::List(Box::new(t.clone()), k), d, false);
                Domain { text, elem: t, size: k, witness: None }
            }
            5 => {
                let v = seqs[self.rng.below(seqs.len())].clone();
                let size = match &v.ty {
                    Ty::Array(_, len) => len.max(),
                    Ty::List(_, k) => *k,
                    _ => n,
                };
                let elem = v.ty.elem().cloned().unwrap_or(Ty::Int);
                Domain { text: v.name, elem, size, witness: None }
            }
            _ => {
                let a = self.domain(max / 2, d - 1)?;
                let b = self.domain(max / a.size.max(1), d - 1)?;
                let witness = a.witness.as_ref().zip(b.witness.as_ref()).map(|(x, y)| format!("({x}, {y})"));
                Domain {
                    text: format!("({}, {})", a.text, b.text),
                    elem: Ty::Tuple(vec![a.elem, b.elem]),
                    size: a.size * b.size.max(1),
                    witness,
                }
            }
        })
    }

    /// The element a chosen pattern binds: the names, as an expression.
    fn bound_value(&self, pat: &str) -> String {
        pat.to_string()
    }

    /// `where` that keeps at least the witness (unless the program is risky).
    fn filter(&mut self, d: &Domain, pat: &str) -> Option<String> {
        let cond = self.expr(&Ty::Bool, 2, true);
        match &d.witness {
            _ if self.risky() => Some(cond),
            Some(w) if self.rng.coin(50) => Some(format!("{} == {w} || {cond}", self.bound_value(pat))),
            _ => None,
        }
    }

    fn choose_player(&mut self, pad: &str) -> String {
        let actor = self.actor();
        let max = self.budget.floor() as usize;
        if let Some(text) = self.large_enum_choice(pad, &actor, max) {
            return text;
        }
        let Some(d) = self.domain(max.min(12), 1) else { return String::new() };
        self.budget /= d.size.max(1) as f64;
        let pat = self.pattern(&d.elem);
        let filter = if self.rng.coin(45) { self.filter(&d, &pat) } else { None };
        let filter = filter.map(|f| format!(" where {f}")).unwrap_or_default();
        format!("{pad}choose {actor} {pat} in {}{filter};\n", d.text)
    }

    /// A player's choice among two values of an enum too large for the
    /// budget, narrowed by `where`.
    fn large_enum_choice(&mut self, pad: &str, actor: &str, max: usize) -> Option<String> {
        let big: Vec<usize> = (0..self.enums.len()).filter(|i| self.enums[*i].len() > 12).collect();
        if big.is_empty() || max < 2 || !self.rng.coin(40) {
            return None;
        }
        let i = big[self.rng.below(big.len())];
        let (a, b) = (self.variant(i), self.variant(i));
        self.budget /= 2.0;
        let name = self.fresh_local();
        self.declare(&name, Ty::Enum(i), false);
        let cond = self.expr(&Ty::Bool, 1, true);
        Some(format!("{pad}choose {actor} {name} in E{i} where {name} == {a} || ({name} == {b} && {cond});\n"))
    }

    fn choose_nature(&mut self, pad: &str) -> String {
        let max = self.budget.floor() as usize;
        if max >= 1 && self.rng.coin(30) {
            let t = self.scalar_ty();
            let k = self.rng.range(1, max.min(4) as i64) as usize;
            self.budget /= k as f64;
            let dens = [1, 2, 3, 4, 6, 8, 12];
            let den = dens[self.rng.below(dens.len())].max(k as i64);
            // `den` split into `k` positive parts.
            let mut parts = vec![1i64; k];
            for _ in 0..den - k as i64 {
                let j = self.rng.below(k);
                parts[j] += 1;
            }
            // Outcomes written alike are one outcome (the checker rejects a
            // literal written twice): a part whose outcome keeps coming out
            // alike goes to the previous entry.
            let mut outcomes: Vec<(String, i64)> = Vec::new();
            for (j, p) in parts.iter().enumerate() {
                let fresh =
                    (0..8).map(|_| self.expr(&t, 1, j > 0)).find(|v| !outcomes.iter().any(|(w, _)| same_literal(w, v)));
                match (fresh, outcomes.last_mut()) {
                    (Some(v), _) => outcomes.push((v, *p)),
                    (None, Some(last)) => last.1 += p,
                    (None, None) => unreachable!("the first outcome is always fresh"),
                }
            }
            let entries: Vec<String> = outcomes
                .iter()
                .map(|(v, p)| if *p == den { format!("{v}: 1") } else { format!("{v}: {p}/{den}") })
                .collect();
            let name = self.fresh_local();
            self.declare(&name, t, false);
            return format!("{pad}choose nature {name} in {{ {} }};\n", entries.join(", "));
        }
        let Some(d) = self.domain(max.min(12), 1) else { return String::new() };
        self.budget /= d.size.max(1) as f64;
        let pat = self.pattern(&d.elem);
        let weight = if !self.rng.coin(35) {
            String::new()
        } else if self.risky() {
            format!(" weight {}", self.expr(&Ty::Int, 2, true))
        } else {
            format!(" weight (abs({}) % 3 + 1)", self.expr(&Ty::Int, 2, true))
        };
        format!("{pad}choose nature {pat} in {}{weight};\n", d.text)
    }

    fn reveal(&mut self, pad: &str) -> String {
        let to = if self.rng.coin(30) { "all".to_string() } else { self.actor() };
        let usable: Vec<usize> =
            (0..self.facts.len()).filter(|i| self.facts[*i].1.iter().all(|t| self.can_untyped(t))).collect();
        let (tag, tys) = if !usable.is_empty() && self.rng.coin(50) {
            self.facts[usable[self.rng.below(usable.len())]].clone()
        } else {
            let n = self.rng.range(1, 3);
            let tys: Vec<Ty> = (0..n)
                .map(|_| {
                    let t = self.value_ty();
                    if self.can_untyped(&t) {
                        t
                    } else {
                        self.scalar_ty()
                    }
                })
                .collect();
            let tag = format!("t{}", self.facts.len());
            self.facts.push((tag.clone(), tys.clone()));
            (tag, tys)
        };
        // Facts keep their argument types: a reused tag's lists may be as long as before.
        let args: Vec<String> = tys.iter().map(|t| self.expr(t, 2, false)).collect();
        format!("{pad}reveal {to} {tag}({});\n", args.join(", "))
    }
}

impl Domain {
    /// A literal list domain yields its element type.
    fn list_elem(mut self) -> Domain {
        if let Ty::List(t, _) = &self.elem {
            self.elem = (**t).clone();
        }
        self
    }
}

/// Whether two outcome expressions are written alike, up to spaces,
/// enum qualifiers (`E::V` is `V`) and outer parentheses: the literal
/// outcomes the checker compares.
fn same_literal(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> String {
        let mut out = String::new();
        let mut word = String::new();
        let mut chars = s.chars().filter(|c| !c.is_whitespace()).peekable();
        while let Some(c) = chars.next() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if c == ':' && chars.peek() == Some(&':') {
                chars.next();
                word.clear();
                continue;
            }
            out.push_str(&word);
            word.clear();
            out.push(c);
        }
        out.push_str(&word);
        let mut t = out.as_str();
        while t.starts_with('(')
            && t.ends_with(')')
            && t[1..t.len() - 1].matches('(').count() == t[1..t.len() - 1].matches(')').count()
        {
            t = &t[1..t.len() - 1];
        }
        t.to_string()
    }
    norm(a) == norm(b)
}
