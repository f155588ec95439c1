//! [`Builder::step`]: a public node's deals advanced (each deal's state
//! before the first moves, or the representative's below them), and, at
//! the first moves, the other player's sets at the root's first child
//! made as the root is ([`Builder::look_ahead`]) and at its other children
//! per class of deals that player cannot tell apart ([`Follow`]).

use std::mem::take;

use galac_runtime::game::{advance_out_of_line, Game, Node};

use super::super::draft::{Deals, SetIds, NONE};
use super::super::from_game_parts::{Ahead, Entries, Item, Parents, Step};
use super::super::infer::refuse;
use super::Builder;
use crate::solver::SolveError;

/// A player's first decision at an action's child, told from its first
/// decision at the first action's child (its sibling, built before): a
/// public game that one representative walks below the first moves has
/// its private values revealed only in the deal and never steering play,
/// so between the sibling and here only the public action differs, and
/// deals the player could not tell apart there it cannot tell apart here.
/// So each class's set here is learnt from its first deal, advanced, and
/// the other deals of the class take it without being advanced. The
/// first child's sets are made by the root's step, which takes the first
/// move on each deal's state there (`Builder::look_ahead`): a deal's state
/// is advanced twice at the first moves (the root, then its first child).
pub(super) struct Follow {
    /// The sibling's deals, in the order of the parents it was made from
    /// (those of this node's, too).
    pub deals: std::rc::Rc<Deals>,
    /// Per deal there, its set at the sibling.
    pub sets: SetIds,
    /// Per set at the sibling: the set here and the moves offered (`NONE`
    /// until a deal of that set is advanced here).
    pub here: Vec<(u32, u32)>,
}

impl Follow {
    /// The set here and moves offered of the `i`th parent (`deal`), if
    /// its class was met.
    fn known(&self, i: usize, deal: u32) -> Option<(u32, u32)> {
        if self.deals.get(i) != Some(deal) {
            return None;
        }
        self.here.get(self.sets.get(i)? as usize).copied().filter(|h| h.0 != NONE)
    }

    /// The `i`th parent (`deal`) is at `set` here, offered `n` moves.
    fn learn(&mut self, i: usize, deal: u32, set: u32, n: u32) {
        if self.deals.get(i) != Some(deal) {
            return;
        }
        let Some(class) = self.sets.get(i).map(|s| s as usize) else { return };
        if self.here.len() <= class {
            self.here.resize(class + 1, (NONE, 0));
        }
        self.here[class] = (set, n);
    }
}

/// Where `step` is a decision of a player `walks` says needs only its sets
/// (but the first deal's, which is advanced), pushes the set here of the
/// `i`th parent (`deal`) if it is known: made `ahead` by the root's step
/// (at the root's first child), or learnt from its class at the sibling
/// (`follow`); whether it was. Inlined into `step`'s loop over the deals.
#[inline]
fn push_known<S>(
    ahead: &Ahead,
    follow: Option<&Follow>,
    step: &mut Option<Step<S>>,
    (i, deal): (usize, u32),
    walks: impl Fn(u32) -> bool,
) -> bool {
    let Some(Step::Decision { player, sets, .. }) = step else { return false };
    if !walks(*player as u32) {
        return false;
    }
    let known = ahead.get(i, deal).or_else(|| follow.and_then(|f| f.known(i, deal)));
    known.map(|(set, n)| sets.push(deal, set, n)).is_some()
}

impl<G: Game> Builder<'_, G> {
    /// Advances every deal's state and makes its children; whether every
    /// deal is at the same kind of node (and the same player's move).
    /// Where a representative walks on after a decision (both players
    /// then having moved: `decided`), only the first deal's children are
    /// made.
    ///
    /// Before a representative walks (the deal's first moves), a
    /// decision's children are not made here: the deals' states are kept
    /// (in `parents`, the first whole and the others as what differs from
    /// it, [`Game::delta`]) and each action's children
    /// made one at a time as its subtree is built ([`Entries::Children`]),
    /// each dropped once advanced unless it is kept in turn. So the first
    /// moves hold a delta per deal (the deals as enumerated), not also a
    /// list of one action's children (on the river with every hand, a
    /// whole state per deal is about 600 MB).
    pub(super) fn step(
        &mut self,
        entries: Entries<'_, G::State>,
        decided: [bool; 2],
        sibling: Option<usize>,
    ) -> Result<(Step<G::State>, bool), SolveError> {
        // The sibling's sets, out of the draft while the step borrows the builder.
        let mut follow = sibling.map(|i| Follow {
            deals: self.draft.decisions[i].1.clone(),
            sets: take(&mut self.draft.decisions[i].2),
            here: Vec::new(),
        });
        let mut step = self.step_with(entries, decided, &mut follow);
        if let (Some(i), Some(mut follow)) = (sibling, follow) {
            // Each deal's set here as its class's: the sibling's list,
            // shared, and a set per class, not a list of a set per deal.
            if let Ok((Step::Decision { sets, .. }, _)) = &mut step {
                let to = follow.here.iter().map(|h| h.0).collect();
                sets.follow(&follow.deals, &mut follow.sets, to);
            }
            self.draft.decisions[i].2 = follow.sets;
        }
        step
    }

    fn step_with(
        &mut self,
        entries: Entries<'_, G::State>,
        decided: [bool; 2],
        follow: &mut Option<Follow>,
    ) -> Result<(Step<G::State>, bool), SolveError> {
        let game = self.game;
        let lazy = self.one;
        // At the root (the deals as enumerated, in order), each deal's
        // private values are kept as its state reaches its first node.
        let donate = lazy && self.donors.is_empty();
        let walks = |player: u32| lazy && decided[1 - player as usize];
        let mut step: Option<Step<G::State>> = None;
        let mut same = true;
        let (held, dealt, from, action) = entries.split();
        // The root's look ahead, for its first child only.
        let ahead = Some(take(&mut self.ahead)).filter(|_| action == Some(0)).unwrap_or_default();
        // Where the deals as enumerated are made again for the root's
        // decision, they are its `parents` as they are.
        let reuse = lazy && dealt.is_some();
        let mut kept = 0;
        let from = dealt.as_ref().or(from);
        let n_from = from.map_or(0, Parents::len);
        // A decision's sets sized once (a set per deal), not grown by doubling.
        let n_entries = held.len() + n_from;
        let (mut held, mut next) = (held.into_iter(), 0..n_from);
        loop {
            // The facts this deal's states push from here are forgotten
            // when none of them is kept (below, `truncate`).
            let mark = self.info.mark();
            // The entry's index among the parents (none for states held;
            // one of the two lists is empty).
            let mut index = None;
            let (deal, state) = match held.next() {
                Some(entry) => entry,
                None => {
                    let (Some(i), Some(from)) = (next.next(), from) else { break };
                    index = Some(i);
                    let deal = from.deal(i);
                    // A deal whose class at the sibling was met here: its set, unadvanced.
                    if push_known(&ahead, follow.as_ref(), &mut step, (i, deal), walks) {
                        continue;
                    }
                    let Some(mut child) = from.state(game, i, &mut self.info)? else {
                        return Err(refuse(format!(
                            "internal error, please report: deal {deal}'s state was let go before its class's set was met"
                        )));
                    };
                    if let Some(action) = action {
                        advance_out_of_line(game, &mut child, &mut self.info)?;
                        self.advanced += 1;
                        game.apply(&mut child, action, &mut self.info)?;
                    }
                    (deal, child)
                }
            };
            // Where the children are made later, `state` is kept as it is
            // (before its `advance`) and a copy advanced (not where the
            // deals as enumerated are the parents: `reuse`).
            let (mut state, before) = if lazy && !reuse { (state.clone(), Some(state)) } else { (state, None) };
            // The copy's facts, forgotten when only `before` is kept.
            let advanced = self.info.mark();
            let node = advance_out_of_line(game, &mut state, &mut self.info)?;
            self.advanced += 1;
            if donate {
                debug_assert_eq!(deal as usize, self.donors.len());
                game.donor(&state, &mut self.donors);
            }
            match (node, step.get_or_insert_with(|| Step::first(game, &state, node, n_entries))) {
                (Node::Terminal, Step::Leaf(pays)) => {
                    let p = game.payoffs(&state, &mut self.pay);
                    pays.push((deal, [p[0], p[1]]));
                    drop((state, before));
                    self.info.truncate(mark);
                }
                (
                    Node::Decision { player, infoset, n_actions },
                    Step::Decision { player: first, sets, kids, parents, .. },
                ) if player as usize == *first => {
                    let first = sets.is_empty();
                    sets.push(deal, infoset, n_actions);
                    if let (Some(f), Some(i)) = (follow.as_mut(), index) {
                        f.learn(i, deal, infoset, n_actions);
                    }
                    if walks(player) && !first {
                        drop((state, before));
                        self.info.truncate(mark);
                        continue;
                    }
                    // The children later from `parents` (only the
                    // representative's where it walks on: made now).
                    if lazy && !walks(player) {
                        // The first deal's whole, the others' as what
                        // differs from it (or the deals: `reuse`).
                        if reuse {
                            kept += 1;
                            self.look_ahead(deal, player, state, kept == 1)?;
                        } else if let Some(before) = before {
                            parents.push(game, deal, before);
                        }
                        self.info.truncate(advanced);
                        continue;
                    }
                    self.children_of(deal, &state, n_actions, kids)?;
                }
                (Node::Chance { n_outcomes }, Step::Chance(items)) => {
                    self.outcomes_of(deal, &state, n_outcomes, items)?
                }
                _ => {
                    same = false;
                    break;
                }
            }
        }
        if let (Some(Step::Decision { parents, .. }), Some(dealt)) = (&mut step, dealt) {
            if reuse && kept == n_from {
                *parents = self.thinned(dealt)?;
            }
        }
        Ok((step.unwrap_or(Step::Leaf(Vec::new())), same))
    }

    /// The root's parents, the deals as enumerated: where the first
    /// child's sets are known (`ahead`), all but the states the later
    /// children's steps advance let go ([`Parents::thin`]).
    fn thinned(&mut self, dealt: Parents<G::State>) -> Result<Parents<G::State>, SolveError> {
        if self.ahead.is_empty() {
            return Ok(dealt);
        }
        Ok(dealt.thin(self.game, self.ahead.pairs(), &mut self.info)?)
    }

    /// At the root's decision of `player` (`state`, `deal`'s, just
    /// advanced; `first`: the first deal), the set of `deal` at the first
    /// child, where that is the other player's first decision, onto
    /// `ahead`, so that the first child's step need not advance the deal's
    /// state from the root again (emptied for good where it is not).
    fn look_ahead(&mut self, deal: u32, player: u32, mut state: G::State, first: bool) -> Result<(), SolveError> {
        if !first && self.ahead.is_empty() {
            return Ok(());
        }
        self.game.apply(&mut state, 0, &mut self.info)?;
        self.advanced += 1;
        match advance_out_of_line(self.game, &mut state, &mut self.info)? {
            Node::Decision { player: other, infoset, n_actions } if other != player => {
                self.ahead.push(deal, infoset, n_actions, self.n_deals);
            }
            _ => self.ahead = Ahead::default(),
        }
        Ok(())
    }

    /// The children of `deal`'s decision (`state`, just advanced), one
    /// list per action.
    fn children_of(
        &mut self,
        deal: u32,
        state: &G::State,
        n_actions: u32,
        kids: &mut Vec<Vec<(u32, G::State)>>,
    ) -> Result<(), SolveError> {
        let made = n_actions as usize;
        if kids.len() < made {
            kids.resize_with(made, Vec::new);
        }
        for (a, list) in kids.iter_mut().enumerate().take(made) {
            let mut child = state.clone();
            self.game.apply(&mut child, a as u32, &mut self.info)?;
            list.push((deal, child));
        }
        Ok(())
    }

    /// The `n_outcomes` children of `deal`'s chance node (`state`, just
    /// advanced), onto `items`.
    fn outcomes_of(
        &mut self,
        deal: u32,
        state: &G::State,
        n_outcomes: u32,
        items: &mut Vec<Item<G::State>>,
    ) -> Result<(), SolveError> {
        let game = self.game;
        game.chance_probs(state, &mut self.probs);
        for (k, p) in self.probs.iter().enumerate().take(n_outcomes as usize) {
            let label = game.action_label(state, k as u32);
            let mut child = state.clone();
            game.apply(&mut child, k as u32, &mut self.info)?;
            items.push((deal, child, p.to_f64(), label));
        }
        Ok(())
    }
}
