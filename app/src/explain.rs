//! `explain`: a profile set by set, in the game's terms. Per information
//! set: its reach, each action's probability and expected payoff, and the
//! beliefs (the hidden histories it holds and how likely each is), from
//! [`galac_solvers::beliefs`]. Sets are listed per player and grouped by the
//! player's private information, the facts no other player knows
//! ([`crate::private_info`]: a dealt card in poker); cards are written as
//! cards. Where the sets are two-card hands, each public state among the
//! selected sets is also shown as the 13x13 grid ([`crate::hands`]). The
//! profile is a
//! strategy file (`solve --out`) or, without one, the answer of the solver
//! `solve` would choose.

use std::path::PathBuf;

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::ids::{IdSlice, InfosetId, NodeId, PlayerId};
use galac_runtime::tree::{NodeView, Tree};
use galac_solvers::beliefs::{explain, SetView};
use galac_solvers::Profile;

use crate::cards::CardStyle;
use crate::{Format, LimitArgs};

/// Beliefs shown per set in text (the JSON answer has them all).
const SHOWN_BELIEFS: usize = 8;

/// Which profile, which sets and how cards read: shared by `explain` and `plot`.
#[derive(clap::Args, Debug, Clone)]
pub struct Selection {
    /// The profile (JSON, as `solve --out` writes it); without it the game
    /// is solved first, by the solver `solve` would choose.
    #[arg(long, value_name = "FILE")]
    pub strategy: Option<PathBuf>,
    /// Only this player's information sets (plot strategy: the first player's by default).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only the sets whose label holds this text (`*` stands for any text;
    /// cards may be written either way, `card(1, 0)` or `Qs`; a hand of two
    /// cards as `AsAh`, in either order).
    #[arg(long, value_name = "PATTERN")]
    pub filter: Option<String>,
    #[command(flatten)]
    pub cards: crate::cards::CardArgs,
}

#[derive(clap::Args, Debug, Clone)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub select: Selection,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// One set, ready to show.
struct Shown {
    set: InfosetId,
    label: String,
    group: String,
    view: SetView,
    /// Each belief's history (what tells the set's members apart).
    histories: Vec<String>,
}

/// Runs `explain`; returns the exit status.
pub fn run<G: Game>(game: &G, args: &ExplainArgs, make: crate::Maker<G>) -> i32 {
    let info = game.info();
    let player = match &args.select.player {
        Some(name) => match info.players.iter().position(|p| p == name) {
            Some(p) => Some(PlayerId::from_index(p)),
            None => {
                eprintln!("error: no player `{name}`; the players are {}", info.players.join(", "));
                return 2;
            }
        },
        None => None,
    };
    if crate::play_public::beyond_tree(game, &args.limits).is_some() {
        return run_without_tree(game, args, player);
    }
    let Some((tree, _)) = crate::build_tree(game, make, &args.limits, true) else { return 1 };
    explain_tree(info, &tree, args, player)
}

/// `explain` on the built tree; the exit status.
fn explain_tree(info: &GameInfo, tree: &Tree, args: &ExplainArgs, player: Option<PlayerId>) -> i32 {
    let labels = crate::report::unique_labels(tree);
    let (profile, source) = match profile_for(info, tree, &labels, args.select.strategy.as_deref(), &args.limits) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let style = args.select.cards.style(args.format == Format::Json);
    let views = explain(tree, &profile);
    let parents = parents(tree);
    let public = crate::private_info::public_view(tree);
    let private = &public.private;
    let filter = SetFilter::new(args.select.filter.as_deref().unwrap_or(""), &style);
    let selected =
        |set: InfosetId| player.is_none_or(|p| tree.infosets[set].player == p) && filter.accepts(&labels[set]);
    // Hands of two cards: the selected sets of each public state as a grid.
    let grids = if crate::hands::may_have_hands(tree) {
        crate::hands::grids(tree, &profile, &views, &public, selected)
    } else {
        Vec::new()
    };
    let mut shown: Vec<Shown> = views
        .into_iter_enumerated()
        .filter(|(set, _)| selected(*set))
        .map(|(set, view)| {
            let label = style.rewrite(&labels[set]);
            let group = match private[set].as_slice() {
                [] => "no private information".to_string(),
                facts => style.rewrite(&facts.join(", ")),
            };
            let histories = histories(tree, &parents, &view, &style);
            Shown { set, group, label, view, histories }
        })
        .collect();
    // Player by player, each group where the player first meets it.
    let mut first_seen = std::collections::HashMap::new();
    for s in &shown {
        first_seen.entry((tree.infosets[s.set].player, s.group.clone())).or_insert(s.set);
    }
    shown.sort_by_key(|s| {
        let player = tree.infosets[s.set].player;
        (player, first_seen[&(player, s.group.clone())], s.set)
    });
    match args.format {
        Format::Text => {
            let mut out = text(tree, &profile, &shown, &source, &crate::title(info));
            for grid in &grids {
                out += &crate::hands::text(grid, &info.players);
            }
            crate::emit(&out)
        }
        Format::Json => {
            let mut answer = json(tree, &profile, &shown, &source, info);
            answer.grids = grids.iter().map(|g| crate::hands::GridJson::new(g, &info.players)).collect();
            return crate::emit_json(&answer);
        }
    }
    0
}

/// The profile in `strategy` (a `solve --out` file), or the answer of the
/// solver `solve` would choose; and where it came from.
pub(crate) fn profile_for(
    info: &GameInfo,
    tree: &Tree,
    labels: &IdSlice<InfosetId, String>,
    strategy: Option<&std::path::Path>,
    limits: &LimitArgs,
) -> Result<(Profile, String), String> {
    if let Some(path) = strategy {
        let loaded = crate::strategy_file::read(path, info, tree, labels, false)?;
        return Ok((loaded.profile, format!("strategy file {}", path.display())));
    }
    let solved = crate::registry::solve_by_default(tree, limits)?;
    Ok((solved.solution.profile, format!("solved by {}", solved.name)))
}

/// `--filter` over information sets' labels: its pattern matches a label
/// as the game writes it, in the answer's card style (`Q♠`) or in letters
/// (`Qs`); and a hand of two cards as players write it (`AsAh`, either
/// order) matches the hand as a label lists it (`[A♥, A♠]`, in the deal's
/// order).
pub(crate) struct SetFilter {
    patterns: Vec<String>,
    style: CardStyle,
    letters: CardStyle,
}

impl SetFilter {
    pub(crate) fn new(pattern: &str, style: &CardStyle) -> SetFilter {
        let mut patterns = vec![pattern.to_string()];
        if let Ok([a, b]) = galac_runtime::notation::parse_cards(pattern).as_deref() {
            let (a, b) = (galac_runtime::notation::show_card(*a), galac_runtime::notation::show_card(*b));
            patterns.extend([format!("{a}, {b}"), format!("{b}, {a}")]);
        }
        SetFilter { patterns, style: style.clone(), letters: CardStyle { symbols: false, ..style.clone() } }
    }

    /// Whether the set labelled `label` is selected.
    pub(crate) fn accepts(&self, label: &str) -> bool {
        let forms = [label.to_string(), self.style.rewrite(label), self.letters.rewrite(label)];
        forms.iter().any(|l| self.patterns.iter().any(|p| matches(p, l)))
    }
}

/// `text` holds `pattern`'s pieces between its `*`s, in order.
pub(crate) fn matches(pattern: &str, text: &str) -> bool {
    let mut rest = text;
    for piece in pattern.split('*') {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

/// Each node's parent (`None` at the root).
fn parents(tree: &Tree) -> Vec<Option<NodeId>> {
    let mut parent = vec![None; tree.n_nodes()];
    for node in tree.nodes() {
        for child in tree.children(node) {
            parent[child.index()] = Some(node);
        }
    }
    parent
}

/// What tells a set's members apart: the chance outcomes and the other
/// players' actions on the way to each, less those every member shares.
fn histories(tree: &Tree, parents: &[Option<NodeId>], view: &SetView, style: &CardStyle) -> Vec<String> {
    let mover = |h: NodeId| tree.player(h);
    let paths: Vec<Vec<String>> = view
        .beliefs
        .iter()
        .map(|&(h, _)| {
            let mut items = Vec::new();
            let mut node = h;
            while let Some(up) = parents[node.index()] {
                let a = (node - tree.children(up).start) as usize;
                match tree.node(up) {
                    NodeView::Chance => {
                        items.push(tree.chance_outcome_labels(up).get(a).cloned().unwrap_or_else(|| format!("#{a}")))
                    }
                    NodeView::Decision { player, infoset } if Some(player) != mover(h) => {
                        items.push(format!("{} {}", tree.player_names[player.index()], tree.action_labels(infoset)[a]))
                    }
                    _ => {}
                }
                node = up;
            }
            items.reverse();
            items
        })
        .collect();
    let same_shape = paths.windows(2).all(|w| w[0].len() == w[1].len());
    paths
        .iter()
        .map(|items| {
            let kept: Vec<&str> = items
                .iter()
                .enumerate()
                .filter(|(i, item)| !same_shape || paths.iter().any(|p| p[*i] != **item))
                .map(|(_, item)| item.as_str())
                .collect();
            let text = if kept.is_empty() { "(one history)".to_string() } else { kept.join(" ") };
            style.rewrite(&text)
        })
        .collect()
}

/// The text report.
fn text(tree: &Tree, profile: &Profile, shown: &[Shown], source: &str, title: &str) -> String {
    let mut out = format!("game: {title}\nprofile: {source}\n");
    let mut last: Option<(PlayerId, &str)> = None;
    for s in shown {
        let player = tree.infosets[s.set].player;
        if last.map(|(p, _)| p) != Some(player) {
            out += &format!("\n== {}\n", tree.player_names[player.index()]);
        }
        if last != Some((player, s.group.as_str())) {
            out += &format!("\n[{}]\n", s.group);
        }
        last = Some((player, s.group.as_str()));
        let reach = if s.view.reach >= 1e-4 {
            format!("reach {:.4}", s.view.reach)
        } else if s.view.reach > 0.0 {
            format!("reach {:.2e}", s.view.reach)
        } else if s.view.beliefs.is_empty() {
            "unreached: no play gets here, no beliefs".to_string()
        } else {
            "unreached: the player's own play avoids it; beliefs if it got here".to_string()
        };
        out += &format!("  {} ({reach})\n", s.label);
        for (a, name) in tree.action_labels(s.set).iter().enumerate() {
            let value = s.view.action_values[a];
            let value = if value.is_nan() { "-".to_string() } else { format!("{value:.4}") };
            out += &format!("    {name:<12} p {:.4}   value {value}\n", profile.probs(s.set)[a]);
        }
        let mut order: Vec<usize> = (0..s.view.beliefs.len()).collect();
        order.sort_by(|&a, &b| s.view.beliefs[b].1.total_cmp(&s.view.beliefs[a].1));
        if s.view.beliefs.len() > 1 {
            let listed: Vec<String> = order
                .iter()
                .take(SHOWN_BELIEFS)
                .map(|&i| format!("{} {:.4}", s.histories[i], s.view.beliefs[i].1))
                .collect();
            let more = s.view.beliefs.len().saturating_sub(SHOWN_BELIEFS);
            let more = if more > 0 { format!(", and {more} more") } else { String::new() };
            out += &format!("    beliefs: {}{more}\n", listed.join(", "));
        }
    }
    if shown.is_empty() {
        out += "\nno information set matches\n";
    }
    out
}

/// The `explain` answer as JSON (schema `galac.explain/1`).
#[derive(serde::Serialize)]
struct ExplainJson<'a> {
    schema: &'static str,
    game: &'a str,
    params: serde_json::Value,
    /// Where the profile came from.
    profile: &'a str,
    sets: Vec<SetJson<'a>>,
    /// Where the sets are hands of two cards: per public state, the
    /// selected sets hand by hand and as the 13x13 grid ([`crate::hands`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    grids: Vec<crate::hands::GridJson<'a>>,
}
json_answers!(ExplainJson<'_>);

/// One information set of the `explain` answer.
#[derive(serde::Serialize)]
struct SetJson<'a> {
    label: &'a str,
    player: &'a str,
    group: &'a str,
    reached: bool,
    reach: f64,
    actions: Vec<ActionJson<'a>>,
    beliefs: Vec<BeliefJson<'a>>,
}

#[derive(serde::Serialize)]
struct ActionJson<'a> {
    action: &'a str,
    probability: f64,
    /// The action's expected value; `None` (null) where it is not finite.
    value: Option<f64>,
}

#[derive(serde::Serialize)]
struct BeliefJson<'a> {
    history: &'a str,
    probability: f64,
}

fn json<'a>(
    tree: &'a Tree,
    profile: &'a Profile,
    shown: &'a [Shown],
    source: &'a str,
    info: &'a GameInfo,
) -> ExplainJson<'a> {
    let sets = shown
        .iter()
        .map(|s| SetJson {
            label: &s.label,
            player: &tree.player_names[tree.infosets[s.set].player.index()],
            group: &s.group,
            reached: s.view.reach > 0.0,
            reach: s.view.reach,
            actions: tree
                .action_labels(s.set)
                .iter()
                .enumerate()
                .map(|(a, name)| ActionJson {
                    action: name,
                    probability: profile.probs(s.set)[a],
                    value: Some(s.view.action_values[a]).filter(|x| x.is_finite()),
                })
                .collect(),
            beliefs: s
                .view
                .beliefs
                .iter()
                .zip(&s.histories)
                .map(|((_, b), h)| BeliefJson { history: h, probability: *b })
                .collect(),
        })
        .collect();
    ExplainJson {
        schema: "galac.explain/1",
        game: &info.name,
        params: crate::params_json(info),
        profile: source,
        sets,
        grids: Vec::new(),
    }
}

/// `explain` on a game whose tree is too large to build (the turn): the
/// game solved on its public game by vector CFR's default run, each public
/// decision of `player` (or every player) whose public line matches
/// `--filter` shown hand by hand as its grid (`crate::hands_public`).
fn run_without_tree<G: Game>(game: &G, args: &ExplainArgs, player: Option<PlayerId>) -> i32 {
    if args.select.strategy.is_some() {
        eprintln!(
            "error: this game's tree is too large to build: `explain` solves it on its public game (a strategy file \
             is matched to the tree's information sets)"
        );
        return 2;
    }
    let info = game.info();
    let derived = match galac_solvers::vector::from_game(game) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    explain_public(info, &derived.game, args, player)
}

/// `explain` on the public game derived from the rules: the chosen public
/// decisions' hands, solved by vector CFR's default run; the exit status.
fn explain_public(
    info: &GameInfo,
    public: &galac_solvers::vector::PublicGame,
    args: &ExplainArgs,
    player: Option<PlayerId>,
) -> i32 {
    let pattern = args.select.filter.as_deref().unwrap_or("");
    let chosen: Vec<_> = crate::hands_public::decisions(public)
        .into_iter()
        .filter(|d| player.is_none_or(|p| p.index() == d.player) && matches(pattern, &d.line))
        .collect();
    let (mut run, source) = match crate::registry::vcfr::run_default(public, &args.limits) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let grids = crate::hands_public::grids(public, &mut run.cfr, &chosen);
    let source = format!("solved by {source}");
    match args.format {
        Format::Text => {
            let mut out = format!("game: {}\nprofile: {source}\n", crate::title(info));
            out += &format!("public decisions shown: {} (`--filter` matches their public lines)\n", grids.len());
            for grid in &grids {
                out += "\n";
                out += &crate::hands::text(grid, &info.players);
            }
            crate::emit(&out)
        }
        Format::Json => {
            let answer = ExplainJson {
                schema: "galac.explain/1",
                game: &info.name,
                params: crate::params_json(info),
                profile: &source,
                sets: Vec::new(),
                grids: grids.iter().map(|g| crate::hands::GridJson::new(g, &info.players)).collect(),
            };
            return crate::emit_json(&answer);
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_split_outside_parentheses_and_patterns_match_in_order() {
        use crate::private_info::facts;
        assert_eq!(facts("B: took(A, 0, 1), moved(Bet)"), ["took(A, 0, 1)", "moved(Bet)"]);
        assert_eq!(facts("first: private_card(card(0, 0))"), ["private_card(card(0, 0))"]);
        assert!(matches("Ks*Raise", "second: private_card(Ks), acted(Raise)"));
        assert!(!matches("Raise*Ks", "second: private_card(Ks), acted(Raise)"));
        assert!(matches("", "anything"));
    }
}
