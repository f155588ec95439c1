//! The builtin functions (lists, cards, boards and players), in one table:
//! each builtin's name, whether it takes steps and its type rule. The enum
//! [`Builtin`], name lookup, suggestions, step counting in generated code
//! and the IR printer all read it.
//!
//! Adding a builtin: a row here (and a [`Seq`] rule with its arm in
//! `Checker::check_builtin` (`call.rs`) if no rule fits), its evaluation in the
//! interpreter (`interp/eval.rs`), its Rust in generated code
//! (`codegen/emit/expr.rs`), its operation in `galac_runtime::ops`, and a
//! row in the language reference (`docs/language.md`). Both evaluators
//! match on [`Builtin`] with no wildcard, so a builtin left out of either
//! does not compile; tests check the reference (`compiler/tests`) and the
//! step counting in generated code against the table (here).

use super::types::Ty;

/// Defines [`Builtin`] and its table from one row per builtin.
macro_rules! builtins {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, steps: $steps:literal, $rule:expr;)*) => {
        /// A builtin function.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Builtin {
            $($(#[$doc])* $variant,)*
        }

        impl Builtin {
            /// Every builtin, in the table's order.
            pub const ALL: &[Builtin] = &[$(Builtin::$variant),*];

            /// The name a game calls it by.
            pub fn name(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $name,)*
                }
            }

            /// Whether a call counts steps of its own (beyond its
            /// arguments'): the builtins that make or walk a list count
            /// one per item, in the interpreter and in generated code.
            pub fn takes_steps(self) -> bool {
                match self {
                    $(Builtin::$variant => $steps,)*
                }
            }

            /// The types of its arguments and result.
            pub fn rule(self) -> Rule {
                use Plain::*;
                match self {
                    $(Builtin::$variant => $rule,)*
                }
            }
        }
    };
}

builtins! {
    /// `len(xs)`: the number of items.
    Len = "len", steps: false, Rule::Sequence(Seq::Len);
    /// `contains(xs, x)`: whether `x` is an item.
    Contains = "contains", steps: true, Rule::Sequence(Seq::Contains);
    /// `count(xs, x)`: how many items (or cells of a board) are `x`.
    Count = "count", steps: true, Rule::Sequence(Seq::Count);
    /// `push(xs, x)`: the list with `x` added at the end.
    Push = "push", steps: true, Rule::Sequence(Seq::Edit);
    /// `remove(xs, x)`: the list without the first `x`.
    Remove = "remove", steps: true, Rule::Sequence(Seq::Edit);
    /// `sum(xs)`: the sum of numbers.
    Sum = "sum", steps: true, Rule::Sequence(Seq::Sum);
    /// `sort(xs)`: the items in increasing order.
    Sort = "sort", steps: true, Rule::Sequence(Seq::Sorted);
    /// `combinations(xs, k)`: every choice of `k` items, in order.
    Combinations = "combinations", steps: true, Rule::Sequence(Seq::Subsets);
    /// `min(a, b)`.
    Min = "min", steps: false, Rule::Fixed(&[Int, Int], Int);
    /// `max(a, b)`.
    Max = "max", steps: false, Rule::Fixed(&[Int, Int], Int);
    /// `abs(n)`: the absolute value.
    Abs = "abs", steps: false, Rule::Fixed(&[Int], Int);
    /// `next(p)`: the player after `p` in turn order.
    Next = "next", steps: false, Rule::Fixed(&[Player], Player);
    /// `index(p)`: a player's position in turn order.
    Index = "index", steps: false, Rule::Fixed(&[Player], Int);
    /// `deck(ranks, suits)`: every card.
    Deck = "deck", steps: true, Rule::Fixed(&[Int, Int], Cards);
    /// `card(rank, suit)`.
    Card = "card", steps: false, Rule::Fixed(&[Int, Int], Card);
    /// `rank(c)`: a card's rank.
    Rank = "rank", steps: false, Rule::Fixed(&[Card], Int);
    /// `suit(c)`: a card's suit.
    Suit = "suit", steps: false, Rule::Fixed(&[Card], Int);
    /// `deck52()`: the standard deck, `deck(13, 4)`: `2s 2h 2d 2c 3s ... Ac`.
    Deck52 = "deck52", steps: true, Rule::Fixed(&[], Cards);
    /// `hand_rank(cards)`: the strength of the best five of 5 to 7 cards
    /// (higher wins, equal splits).
    HandRank = "hand_rank", steps: false, Rule::Fixed(&[Cards], Int);
    /// `deal_hands(first, second, board)`: every pair of hands of two
    /// ranges sharing no card with each other or the board, with the
    /// product of their weights.
    DealHands = "deal_hands", steps: true, Rule::Fixed(&[Range, Range, Cards], Deals);
    /// `cells(rows, cols)`: every `(row, col)` of a board.
    Cells = "cells", steps: true, Rule::Fixed(&[Int, Int], Cells);
    /// `has_line(board, k, x)`: whether `k` cells in a row (across, down
    /// or diagonally) are `x`.
    HasLine = "has_line", steps: true, Rule::Sequence(Seq::Line);
}

/// A builtin's type rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// These argument types, this result type.
    Fixed(&'static [Plain], Plain),
    /// Over a sequence, its first argument, whose item type rules the
    /// other arguments and the result.
    Sequence(Seq),
}

/// The types a [`Rule::Fixed`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plain {
    Int,
    Player,
    Card,
    /// `list<card>`.
    Cards,
    /// `list<(int, int)>`.
    Cells,
    /// `range`: `list<(list<card>, int)>`, hands with their weights.
    Range,
    /// `list<(list<card>, list<card>, int)>`: two hands and a weight.
    Deals,
}

impl Plain {
    pub(super) fn ty(self) -> Ty {
        match self {
            Plain::Int => Ty::Int,
            Plain::Player => Ty::Player,
            Plain::Card => Ty::Card,
            Plain::Cards => Ty::List(Box::new(Ty::Card)),
            Plain::Cells => Ty::List(Box::new(Ty::Tuple(vec![Ty::Int, Ty::Int]))),
            Plain::Range => super::types::range_ty(),
            Plain::Deals => {
                let hand = || Ty::List(Box::new(Ty::Card));
                Ty::List(Box::new(Ty::Tuple(vec![hand(), hand(), Ty::Int])))
            }
        }
    }
}

/// The type rules over a sequence `xs` of items of type `T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seq {
    /// `(xs) -> int`.
    Len,
    /// `(xs) -> int`, `T` is `int`.
    Sum,
    /// `(xs) -> the type of xs`.
    Sorted,
    /// `(xs, T) -> bool`.
    Contains,
    /// `(xs, T) -> int`, or `(board, cell) -> int` for a 2-D array.
    Count,
    /// `(list<T>, T) -> list<T>`: arrays have a fixed length.
    Edit,
    /// `(xs, int) -> list<list<T>>`.
    Subsets,
    /// `(board, int, cell) -> bool` for a 2-D array.
    Line,
}

impl Seq {
    pub(super) fn arity(self) -> usize {
        match self {
            Seq::Len | Seq::Sum | Seq::Sorted => 1,
            Seq::Contains | Seq::Count | Seq::Edit | Seq::Subsets => 2,
            Seq::Line => 3,
        }
    }
}

/// The builtin called `name`.
pub fn lookup(name: &str) -> Option<Builtin> {
    Builtin::ALL.iter().copied().find(|b| b.name() == name)
}

/// Every builtin's name, for suggestions.
pub fn names() -> impl Iterator<Item = &'static str> {
    Builtin::ALL.iter().map(|b| b.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_is_found_by_its_name_alone() {
        for b in Builtin::ALL {
            assert_eq!(lookup(b.name()), Some(*b));
            assert_eq!(names().filter(|n| *n == b.name()).count(), 1, "{}", b.name());
        }
        assert_eq!(lookup("hasline"), None);
    }

    /// A call of each builtin, on the list `xs`, the int `n`, the card `c`,
    /// the board `board` and the player `a` of the game below.
    fn call(b: Builtin) -> &'static str {
        match b {
            Builtin::Len => "len(xs)",
            Builtin::Contains => "contains(xs, 1)",
            Builtin::Count => "count(xs, 1)",
            Builtin::Push => "push(xs, 1)",
            Builtin::Remove => "remove(xs, 1)",
            Builtin::Sum => "sum(xs)",
            Builtin::Sort => "sort(xs)",
            Builtin::Combinations => "combinations(xs, 1)",
            Builtin::Min => "min(n, 1)",
            Builtin::Max => "max(n, 1)",
            Builtin::Abs => "abs(n)",
            Builtin::Next => "next(a)",
            Builtin::Index => "index(a)",
            Builtin::Deck => "deck(n, 2)",
            Builtin::Card => "card(n, 0)",
            Builtin::Rank => "rank(c)",
            Builtin::Suit => "suit(c)",
            Builtin::Deck52 => "deck52()",
            Builtin::HandRank => "hand_rank([c, c, c, c, c])",
            Builtin::DealHands => "deal_hands([([c], 1)], [([c], 1)], [c])",
            Builtin::Cells => "cells(n, 2)",
            Builtin::HasLine => "has_line(board, 2, 1)",
        }
    }

    /// A builtin counts steps in generated code (passes it the step
    /// counter) exactly when its row says it takes steps.
    #[test]
    fn generated_code_counts_steps_for_the_builtins_that_take_them() {
        let game = |e: &str| {
            format!(
                "game t {{ players a; var xs: list<int> = [1, 2]; var n: int = 2; var c: card = card(1, 1);
                 var board: [[int; 2]; 2] = [[0, 1], [1, 0]];
                 flow {{ choose a k in 0..2; let x = {e}; n = k; outcome [0]; }} }}"
            )
        };
        let limits = |e: &str| {
            let code = crate::compile::compiled(&game(e)).emit_game("t.gala").expect("code");
            code.matches("step_limit").count()
        };
        let none = limits("0");
        for b in Builtin::ALL {
            assert_eq!(limits(call(*b)) > none, b.takes_steps(), "{}", b.name());
        }
    }
}
