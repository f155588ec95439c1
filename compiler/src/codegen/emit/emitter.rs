//! The emitter's state, shared by the methods its sibling modules define:
//! where names are read ([`Ctx`]), the program and its layout, the per-block
//! plans, and what the candidate loop being emitted has lifted or bound.

use proc_macro2::TokenStream;

use crate::codegen::layout::Layout;
use crate::ir;
use crate::source::SourceFile;
use crate::typeck::tast::Expr;

/// Where expressions read names: the state's slots (flows) or a fn's locals.
#[derive(Clone, Copy)]
pub(super) enum Ctx {
    Flow,
    Fn,
    /// Param defaults: params are locals named like the fields.
    Params,
}

/// Emits the Rust of one lowered game; its methods, spread over this
/// module's siblings by what they emit, share this state.
pub struct Emitter<'a> {
    pub(super) ir: &'a ir::Program,
    pub(super) locator: &'a SourceFile,
    pub(super) n_players: usize,
    pub(super) layout: Layout,
    /// Per block, whether its choice's own-move record carries the offered
    /// list ([`crate::offers`]).
    pub(super) remembered: Vec<bool>,
    /// Per block, whether its choice's own-move record is made where it is
    /// read instead of in `apply` ([`super::deferred`]).
    pub(super) deferred: Vec<bool>,
    /// Per block, whether its reveal is made at the next choice ([`super::sunk`]).
    pub(super) sunk: Vec<bool>,
    /// The lookups lifted out of the candidate loop being emitted, with
    /// the names of their results and their loop levels ([`super::hoist`]).
    pub(super) hoisted: std::cell::RefCell<Vec<(*const Expr, proc_macro2::Ident, usize)>>,
    /// The locals of the choice whose candidates are being emitted, held
    /// in Rust locals while its `where` and `weight` test a candidate.
    pub(super) bound: std::cell::RefCell<Vec<(u32, proc_macro2::Ident)>>,
    /// The `count` (its arguments' address) that the test being emitted
    /// reads from a pass over the board made already, and the one the next
    /// test run in place will ([`super::scan`]).
    pub(super) scan: std::cell::Cell<Option<*const Expr>>,
    pub(super) scan_next: std::cell::Cell<Option<*const Expr>>,
    /// Whether arrays are held as Rust arrays ([`super::arrays`]), and whether one
    /// was met that cannot be (the game is emitted with lists instead).
    pub(super) fixed_arrays: bool,
    pub(super) unfit: std::cell::Cell<bool>,
    /// The proof that one representative deal may walk the public tree
    /// ([`crate::public::public_course`]), or why not, located as the
    /// interpreter locates it ([`super::course`]).
    pub(super) course: Result<crate::public::PublicCourse, String>,
    /// Whether the code being emitted is `advance_public`'s: it stops on
    /// entering the payoff's code and returns `Option<Node>`.
    pub(super) stopping: std::cell::Cell<bool>,
}

/// How a domain is looped over, once what it is made of is evaluated.
pub(super) enum DomainPlan {
    /// `for __x in` this iterator, of this many elements (a `u64`).
    Each(TokenStream, TokenStream),
    /// Nested loops over the parts (the product's number names its tuple's parts).
    Product(u32, Vec<DomainPlan>),
}
