//! The builders' entry points: each builds with the game's specialised copy
//! ([`Game::specialised`]: the same game compiled for its params' values)
//! when it has one, else with the game itself. Only the builders are
//! compiled twice; labels, play and the solvers keep the game they got
//! (the double oracle, which asks its game for information sets in the
//! build's interner, builds with [`build_own`] or [`build_parallel_own`]).

use std::io::{Read, Seek, Write};

use super::build::Shard;
use super::nodes::Tree;
use super::options::{BuildError, BuildOptions};
use super::{parallel, stream, MakeScratch, Saved};
use crate::game::Game;
use crate::info::InfoInterner;

/// Builds the whole tree of `game`, and returns it with the interner that
/// built it (the specialised copy's, when it built) and the build time.
pub fn build<G: Game>(game: &G, opts: &BuildOptions) -> Result<(Tree, InfoInterner, f64), BuildError> {
    match game.specialised() {
        Some(fast) => super::build::build(&fast, opts),
        None => super::build::build(game, opts),
    }
}

/// [`super::build::build_shard`]: a distributed run's rank's shard of the
/// tree, with the specialised copy if the game has one.
pub fn build_shard<G: Game>(
    game: &G,
    opts: &BuildOptions,
    shard: Shard,
) -> Result<(Tree, InfoInterner, f64), BuildError> {
    match game.specialised() {
        Some(fast) => super::build::build_shard(&fast, opts, Some(shard)),
        None => super::build::build_shard(game, opts, Some(shard)),
    }
}

/// Builds the whole tree with `game` itself, never its specialised copy:
/// for a caller that goes on asking `game` for information sets in the
/// build's interner (the double oracle), since the copy may number its
/// choice types apart (a choice over `[int; n]` and one over `[int; 2]`
/// share a type while `n` is unknown, not once it is 3).
pub fn build_own<G: Game>(game: &G, opts: &BuildOptions) -> Result<(Tree, InfoInterner, f64), BuildError> {
    super::build::build(game, opts)
}

/// [`build_own`] on up to `threads` threads: the tree built by the games
/// `make` makes (never their specialised copies), with an interner that
/// numbers its sets as [`build_own`]'s does
/// ([`parallel::build_parallel_own`]).
pub fn build_parallel_own<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
) -> Result<(Tree, InfoInterner, f64), BuildError> {
    parallel::build_parallel_own(make, opts, threads)
}

/// [`parallel::build_parallel`] with the specialised copies of `make`'s games, if they have them.
pub fn build_parallel<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
) -> Result<(Tree, f64), BuildError> {
    match specialised_maker(make) {
        Some(fast) => parallel::build_parallel(&fast, opts, threads),
        None => parallel::build_parallel(make, opts, threads),
    }
}

/// [`stream::build_saving`] with `game`'s specialised copy, if it has one.
pub fn build_saving<G: Game, W: Read + Write + Seek>(
    game: &G,
    opts: &BuildOptions,
    out: W,
) -> Result<Saved, BuildError> {
    match game.specialised() {
        Some(fast) => stream::build_saving(&fast, opts, out),
        None => stream::build_saving(game, opts, out),
    }
}

/// [`parallel::build_parallel_saving`] with the specialised copies of `make`'s games, if they have them.
pub fn build_parallel_saving<G: Game, W: Read + Write + Seek>(
    make: &(dyn Fn() -> Option<G> + Sync),
    opts: &BuildOptions,
    threads: usize,
    out: W,
    scratch: &MakeScratch<'_>,
) -> Result<Saved, BuildError> {
    match specialised_maker(make) {
        Some(fast) => parallel::build_parallel_saving(&fast, opts, threads, out, scratch),
        None => parallel::build_parallel_saving(make, opts, threads, out, scratch),
    }
}

/// A maker of the specialised copies of `make`'s games, if the first game
/// it makes has one (the params, hence the answer, are the same for all).
fn specialised_maker<G: Game>(
    make: &(dyn Fn() -> Option<G> + Sync),
) -> Option<impl Fn() -> Option<G::Specialised> + Sync + '_> {
    make()?.specialised()?;
    Some(move || make().and_then(|g| g.specialised()))
}
