//! How a game's arrays are held. As [`List`](galac_runtime::value::List)s
//! when their lengths are known only when the game runs (params); as Rust
//! arrays `[T; N]` when every array of the game has a length known now
//! (literals, or params fixed by [`crate::driver::specialise`]) and plain
//! items (numbers, enums, players, arrays of them) in at most
//! [`MAX_FIXED_BYTES`]. A Rust array is read without testing which kind of
//! list it is, and copied with the state by plain moves: blind tic-tac-toe's
//! board as `[[u8; 3]; 3]` built its tree 11% faster than as a list of rows.
//!
//! The choice is the whole game's: a value flows between places of one
//! type, so every array of the game is held one way. While emitting in
//! the fixed way, an array that cannot be held so marks the game unfit
//! ([`Emitter::unfit`]), and the caller emits it with lists instead.

use proc_macro2::TokenStream;
use quote::quote;

use super::emitter::Emitter;
use crate::typeck::types::Ty;

/// The most bytes an array is held in as a Rust array: more would make
/// each copy of the state longer than the list it replaces saves.
const MAX_FIXED_BYTES: usize = 64;

/// The longest array held as a Rust array (`Default`, for the state's
/// unset fields, stops at 32).
const MAX_FIXED_LEN: i64 = 32;

impl Emitter<'_> {
    /// The length of `t` held as a Rust array, if it is an array type and
    /// this game's arrays are Rust arrays; when they should be and `t`
    /// cannot be, marks the game unfit.
    pub(super) fn fixed_len(&self, t: &Ty) -> Option<usize> {
        if !self.fixed_arrays {
            return None;
        }
        match (t, self.fixed_bytes(t)) {
            (Ty::Array(_, Some(n)), Some(_)) => Some(*n as usize),
            (Ty::Array(..), _) => {
                self.unfit.set(true);
                None
            }
            _ => None,
        }
    }

    /// The bytes a value of type `t` takes as a plain value, if its arrays
    /// can be Rust arrays.
    fn fixed_bytes(&self, t: &Ty) -> Option<usize> {
        match t {
            Ty::Int | Ty::Card => Some(8),
            Ty::Bool | Ty::Player => Some(1),
            Ty::Enum(id, _) if self.wide_enum(*id) => Some(4),
            Ty::Enum(..) => Some(1),
            Ty::Array(t, Some(n)) if (0..=MAX_FIXED_LEN).contains(n) => {
                self.fixed_bytes(t).map(|b| b * *n as usize).filter(|b| *b <= MAX_FIXED_BYTES)
            }
            _ => None,
        }
    }

    /// The Rust type of array type `t` (of items `elem`).
    pub(super) fn array_ty(&self, t: &Ty, elem: &Ty) -> TokenStream {
        let item = self.ty(elem);
        match self.fixed_len(t) {
            Some(n) => quote!([#item; #n]),
            None => quote!(::galac_runtime::value::List<#item>),
        }
    }

    /// The Rust type of a list of `elem`s: a list never holds Rust arrays
    /// (kept simple: a list of them would need them inline or shared like
    /// other items), so one that would marks the game unfit.
    pub(super) fn list_ty(&self, elem: &Ty) -> TokenStream {
        if self.fixed_arrays && holds_array(elem) {
            self.unfit.set(true);
        }
        let item = self.ty(elem);
        quote!(::galac_runtime::value::List<#item>)
    }
}

/// Whether values of `t` have an array inside.
fn holds_array(t: &Ty) -> bool {
    match t {
        Ty::Array(..) => true,
        Ty::Tuple(ts) => ts.iter().any(holds_array),
        Ty::Data(_, _, ts) => ts.iter().any(holds_array),
        Ty::PerPlayer(t) | Ty::List(t) => holds_array(t),
        Ty::Int | Ty::Card | Ty::Error | Ty::Bool | Ty::Player | Ty::Enum(..) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::emitted;

    const GAME: &str = "game t { players a, b; param n: int = 3; var xs: TYPE = INIT;
        flow { choose a i in 0..n; xs[i] = 1; USE outcome [sum(xs), 0 - sum(xs)]; } }";

    fn game(ty: &str, init: &str, use_: &str) -> String {
        GAME.replace("TYPE", ty).replace("INIT", init).replace("USE", use_)
    }

    #[test]
    fn param_lengths_get_a_copy_with_rust_arrays() {
        let code = emitted(&game("[int; n]", "[0; n]", ""));
        assert!(code.contains("pub mod specialised"), "{code}");
        assert!(code.contains("[i64; 3usize]") && code.contains("value::List<i64>"), "{code}");
    }

    #[test]
    fn literal_lengths_are_rust_arrays_without_a_copy() {
        let code = emitted(&game("[int; 3]", "[0, 0, 0]", ""));
        assert!(!code.contains("pub mod specialised") && !code.contains("value::List<i64>"), "{code}");
        assert!(code.contains("[i64; 3usize]"), "{code}");
    }

    #[test]
    fn arrays_that_cannot_be_rust_arrays_stay_lists() {
        for (ty, init, use_) in [
            // Combined (`combinations` takes a list), too long, in a list,
            // of a length the defaults contradict (the copy does not check).
            ("[int; n]", "[0; n]", "let c = combinations(xs, 2);"),
            ("[int; n]", "[0, 0]", ""),
            ("[int; 40]", "[0; 40]", ""),
            ("[int; n]", "[0; n]", "let l: list<[int; n]> = [xs]; xs = l[0];"),
        ] {
            let code = emitted(&game(ty, init, use_));
            assert!(!code.contains("pub mod specialised") && code.contains("value::List<i64>"), "{ty} {use_}: {code}");
        }
    }
}
