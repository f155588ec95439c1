//! Exact interning of information states and information sets.
//!
//! A player's information state is the list of facts revealed to them (and
//! their own choices), in order. It is stored as a trie: each state is a
//! parent state plus one fact, a word sequence, eight bytes an entry.
//! Interning compares the words exactly; the hash only finds candidates.
//! Two decision nodes share an information set iff the player, the
//! information state and the list of available choices are all equal: a set
//! is (state, choice-key fact), eight bytes, the player being the choice
//! key's second word.
//!
//! Pushing a fact is lazy: [`InfoInterner::push`] only appends the fact to an
//! arena (its packed id if it is short, else its words), and the trie
//! lookups happen when an information set is asked for
//! ([`InfoInterner::infoset`]). Most facts of a tree are revealed just
//! before a leaf and never looked up. The arena follows the builder's stack:
//! [`InfoInterner::mark`] and [`InfoInterner::truncate`] drop the pending
//! facts of finished subtrees.
//!
//! Facts are numbered ([`facts`]: short facts pack into their id, others go
//! through a dictionary), so the trie is a map from (parent, fact id) to
//! child and the sets a map from (state, choice key) to set, each one
//! open-addressing index of four-byte slots, each key homed near its state
//! so that a depth-first build's lookups stay in cache
//! ([`compact_index`]): a few bytes a state and a set, so that a game of
//! millions of them keeps its interner small next to its tree
//! (docs/perf/tree-build.md, "The interner"). A memo from (interned base, the two
//! newest pending facts, the player) to the information set and its choice
//! list makes a decision node one compare against a guessed entry in the
//! common case ([`memo`]). Choice lists are keyed by [`choice_key`].

mod choice_key;
mod compact_index;
mod facts;
mod id_index;
/// Another interner's sets found or interned here (a parallel build's merge).
mod import;
mod interner;
mod memo;
/// Own moves' records with the list they were offered, by id.
mod offered;
/// push_offered and push_deferred: own moves recorded with their offered list.
mod records;
mod words;

pub use choice_key::{append_choice_key, choice_key};
pub use import::{ImportCache, InfoKeys};
pub use interner::{InfoInterner, InfosetKey};
pub use words::{InfoState, CHOSE_TAG};

#[cfg(test)]
mod tests;
