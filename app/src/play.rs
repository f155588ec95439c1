//! `play`: a person plays the game at the terminal against the strategies
//! of `simulate` (solved on the fly, a strategy file, uniform random, a
//! best response) or against other people at the same terminal. At each of
//! their decisions a person sees what the game has revealed to their seat
//! since their last move (the information set's new facts, in the game's
//! labels, cards written as cards) and chooses an action by label or
//! number; at the end, the whole play and the payoffs.
//!
//! Moves are read from standard input a line at a time, so a session can
//! be scripted (`printf 'Bet\nPass\n' | galac play ...`): when standard
//! input is not a terminal each move read is echoed after its prompt, and
//! a move that is not an action is an error instead of a new prompt.
//!
//! With `--format json` the conversation goes to standard error and each
//! game played is one JSON line on standard output (JSON Lines): seat,
//! seed, the whole play and the payoffs.

use std::io::{BufRead, IsTerminal};

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::ids::{InfosetId, NodeId, PlayerId};
use galac_runtime::rng::SplitMix64;
use galac_runtime::tree::{NodeView, Tree};
use galac_solvers::sample::Sampler;

use crate::cards::CardStyle;
use crate::strategies::{Resolver, Source};
use crate::{Format, LimitArgs};

/// The `schema` key of each `play --format json` record.
pub(crate) const SCHEMA: &str = "galac.play/1";

#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Your seat: a player's name or number (from 1). Default: the first.
    #[arg(long, value_name = "SEAT")]
    pub seat: Option<String>,
    /// The other seats' play: `solved` (the solver `solve` chooses),
    /// `uniform`, a file written by `solve --out`, `br:SPEC` (a best
    /// response to SPEC), or `human` (every seat is played at this terminal).
    #[arg(long, value_name = "SPEC", default_value = "solved")]
    pub against: String,
    /// Seed of the random draws (chance and the others' mixed play);
    /// default: from the clock, printed so that the games can be replayed.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Number of games to play.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: u32,
    /// When a game ends, do not show the whole play (every chance outcome
    /// and every move, including what the game hid from you).
    #[arg(long)]
    pub hide_play: bool,
    #[command(flatten)]
    pub cards: crate::cards::CardArgs,
    /// Output format: `json` writes one record per game on standard
    /// output and the conversation on standard error.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How a session reads moves and reports to its player.
struct Session<'a, R: BufRead> {
    tree: &'a Tree,
    input: R,
    /// Standard input is not a terminal: echo moves, stop on a bad one.
    scripted: bool,
    /// The whole play of the current game, in the game's labels.
    trail: Vec<String>,
    /// Per player, the facts they were shown at their last decision of
    /// the current game (what is new to them is shown next time).
    seen: Vec<Vec<String>>,
    /// How cards are written to the person.
    style: CardStyle,
    /// `--format json`: the conversation goes to standard error.
    json: bool,
}

/// Why a session stopped before its games were played.
pub(crate) enum Stop {
    /// The player typed `quit` (exit 0).
    Quit,
    /// Input ended or a scripted move was wrong (exit 1).
    Error(String),
}

/// Runs `play`; returns the exit status (0 when the games were played or
/// the player quit, 1 when input ended or a scripted move was wrong).
pub fn run<G: Game>(game: &G, args: &PlayArgs, make: crate::Maker<G>) -> i32 {
    let info = game.info();
    let seat = match args.seat.as_deref().map_or(Ok(0), |s| crate::strategies::seat(&info.players, s)) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    let Some((tree, _)) = crate::build_tree(game, make, &args.limits, true) else {
        return 1;
    };
    play_tree(info, &tree, args, seat)
}

/// `play` on the built tree, the person at `seat` (unless every seat is a
/// person's); the exit status.
fn play_tree(info: &GameInfo, tree: &Tree, args: &PlayArgs, seat: u32) -> i32 {
    let all_human = args.against == "human";
    let labels = crate::report::unique_labels(tree);
    let mut resolver = Resolver::new(tree, info, &labels).with_limits(&args.limits);
    let against = Source::parse(&args.against);
    let sources: Vec<Source> = (0..info.players.len()).map(|_| against.clone()).collect();
    let profile = if all_human { Ok(galac_solvers::Profile::uniform(tree)) } else { resolver.combine(&sources) };
    let profile = match profile {
        Ok(p) => p,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 1;
        }
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let opponents = match (all_human, resolver.solver_name()) {
        (true, _) => "every seat played here".to_string(),
        (false, Some(solver)) => format!("the others play {} ({solver})", against.describe()),
        (false, None) => format!("the others play {}", against.describe()),
    };
    let you = if all_human { String::new() } else { format!("you play {}; ", info.players[seat as usize]) };
    let json = args.format == Format::Json;
    say(
        json,
        &format!(
            "{}: {you}{opponents}; seed {seed}\nChoose an action by its label or its number (`quit` stops).\n",
            crate::title(info)
        ),
    );
    let sampler = Sampler::new(tree, &profile);
    let stdin = std::io::stdin();
    let mut session = Session {
        tree,
        input: stdin.lock(),
        scripted: !std::io::stdin().is_terminal(),
        trail: Vec::new(),
        seen: vec![Vec::new(); info.players.len()],
        style: args.cards.style(false),
        json,
    };
    let human = |player: PlayerId| all_human || player.0 == seat;
    let mut scores = Scores::new(&info.players, args, (!all_human).then_some(seat as usize), seed);
    for g in 0..args.games {
        say(json, &format!("\ngame {} of {}\n", g + 1, args.games));
        let mut rng = SplitMix64::stream(seed, u64::from(g));
        let leaf = match session.play(&sampler, &mut rng, &human) {
            Ok(leaf) => leaf,
            Err(Stop::Quit) => return 0,
            Err(Stop::Error(msg)) => {
                eprintln!("error: {msg}");
                return 1;
            }
        };
        if scores.game(g, &session.trail, tree.payoffs(leaf), &session.style) != 0 {
            return 1;
        }
    }
    scores.end();
    0
}

/// What a session reports of each game it played, and of all of them.
pub(crate) struct Scores<'a> {
    players: &'a [String],
    args: &'a PlayArgs,
    /// The person's seat (`None`: every seat is a person's).
    seat: Option<usize>,
    seed: u64,
    totals: Vec<i64>,
}

impl<'a> Scores<'a> {
    pub(crate) fn new(players: &'a [String], args: &'a PlayArgs, seat: Option<usize>, seed: u64) -> Scores<'a> {
        Scores { players, args, seat, seed, totals: vec![0; players.len()] }
    }

    /// Reports game `g` (from 0), played as `trail`, which paid `payoffs`:
    /// its JSON record, or the play and the payoffs. Returns the exit
    /// status of writing it.
    pub(crate) fn game(&mut self, g: u32, trail: &[String], payoffs: &[i64], style: &CardStyle) -> i32 {
        let json = self.args.format == Format::Json;
        for (t, x) in self.totals.iter_mut().zip(payoffs) {
            *t += x;
        }
        let players = self.players;
        if json {
            say(json, &format!("payoffs: {}\n", per_player(players, payoffs)));
            let record = PlayJson {
                schema: SCHEMA,
                game: g + 1,
                seed: self.seed,
                seat: self.seat.map(|s| players[s].as_str()),
                against: &self.args.against,
                play: trail,
                payoffs: crate::report::Keyed(players, payoffs),
            };
            return crate::emit_json(&record);
        }
        if !self.args.hide_play {
            crate::emit(&format!("the play: {}\n", style.rewrite(&trail.join(", "))));
        }
        crate::emit(&format!("payoffs: {}\n", per_player(players, payoffs)));
        0
    }

    /// The totals over the games, when there were several (text only).
    pub(crate) fn end(&self) {
        let games = self.args.games;
        if games <= 1 || self.args.format == Format::Json {
            return;
        }
        let yours = match self.seat {
            None => String::new(),
            Some(seat) => {
                let total = self.totals[seat];
                format!("; you ({}) {total:+}, {:+.2} a game", self.players[seat], total as f64 / f64::from(games))
            }
        };
        crate::emit(&format!("\ntotal over {games} games: {}{yours}\n", per_player(self.players, &self.totals)));
    }
}

/// Writes the conversation: to standard output, or standard error when
/// standard output carries the JSON records.
pub(crate) fn say(json: bool, text: &str) {
    if json {
        use std::io::Write;
        let _ = std::io::stderr().write_all(text.as_bytes());
    } else {
        crate::emit(text);
    }
}

/// "first 1, second -1".
pub(crate) fn per_player(players: &[String], values: &[i64]) -> String {
    players.iter().zip(values).map(|(p, x)| format!("{p} {x}")).collect::<Vec<_>>().join(", ")
}

/// A seed from the clock, for sessions that do not give one.
pub(crate) fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    SplitMix64(nanos as u64).next() % 1_000_000
}

impl<R: BufRead> Session<'_, R> {
    /// Plays one game from the root; returns its leaf.
    fn play(
        &mut self,
        sampler: &Sampler,
        rng: &mut SplitMix64,
        human: &dyn Fn(PlayerId) -> bool,
    ) -> Result<NodeId, Stop> {
        self.trail.clear();
        self.seen.iter_mut().for_each(Vec::clear);
        let mut node = NodeId::ROOT;
        loop {
            let next = match self.tree.node(node) {
                NodeView::Terminal => return Ok(node),
                NodeView::Chance => {
                    let child = sampler.child(node, rng.uniform());
                    let labels = self.tree.chance_outcome_labels(node);
                    let i = (child - self.tree.children(node).start) as usize;
                    self.trail.push(format!("chance {}", labels.get(i).map_or("?", String::as_str)));
                    child
                }
                NodeView::Decision { player, infoset } => {
                    let a = if human(player) {
                        self.ask(player, infoset)?
                    } else {
                        sampler.child(node, rng.uniform()) - self.tree.children(node).start
                    };
                    let name = &self.tree.player_names[player.index()];
                    self.trail.push(format!("{name} {}", self.tree.action_labels(infoset)[a as usize]));
                    self.tree.children(node).nth_id(a as usize)
                }
            };
            node = next;
        }
    }

    /// Shows the player what is new to them since their last decision
    /// (everything they know, at their first) and the actions, and reads a
    /// choice.
    fn ask(&mut self, player: PlayerId, infoset: InfosetId) -> Result<u32, Stop> {
        let name = &self.tree.player_names[player.index()];
        // A set's label starts with its player's name, said already.
        let label = self.tree.infoset_label(infoset);
        let facts = label.strip_prefix(name.as_str()).and_then(|l| l.strip_prefix(": ")).unwrap_or(label);
        let facts: Vec<String> = if facts == "start" { Vec::new() } else { split_facts(facts) };
        let seen = std::mem::replace(&mut self.seen[player.index()], facts.clone());
        let news = match facts.strip_prefix(&seen[..]) {
            Some(new) if !seen.is_empty() => {
                // The player's own move is no news to them.
                let new: Vec<&str> = new.iter().map(String::as_str).filter(|f| !f.starts_with("chose ")).collect();
                let new = if new.is_empty() { "nothing".to_string() } else { new.join(", ") };
                format!("new since your last move: {new}")
            }
            _ => format!("you know: {}", if facts.is_empty() { "nothing yet".into() } else { facts.join(", ") }),
        };
        let actions = self.tree.action_labels(infoset);
        let mut text = format!("{name} to play; {}\n", self.style.rewrite(&news));
        let shown: Vec<String> = actions.iter().map(|a| self.style.rewrite(a)).collect();
        for (i, a) in shown.iter().enumerate() {
            text += &format!("  {} {a}\n", i + 1);
        }
        say(self.json, &text);
        read_choice(&mut self.input, self.scripted, self.json, actions, &shown)
    }
}

/// Reads the person's choice among `actions` (`shown`: as they were
/// written to them) until one names an action: `quit` stops the session,
/// and a wrong move in a scripted session is an error.
pub(crate) fn read_choice(
    input: &mut impl BufRead,
    scripted: bool,
    json: bool,
    actions: &[String],
    shown: &[String],
) -> Result<u32, Stop> {
    loop {
        say(json, "> ");
        let line = match read_move(input) {
            Ok(Some(line)) => line,
            Ok(None) => {
                say(json, "\n");
                return Err(Stop::Error("input ended before the game did".into()));
            }
            Err(e) => {
                say(json, "\n");
                return Err(Stop::Error(e));
            }
        };
        let typed = line.trim();
        if scripted {
            say(json, &format!("{typed}\n"));
        }
        if typed == "quit" {
            return Err(Stop::Quit);
        }
        match choice(actions, typed).or_else(|| choice(shown, typed)) {
            Some(a) => return Ok(a),
            None => {
                let options: Vec<String> = shown.iter().enumerate().map(|(i, a)| format!("{} {a}", i + 1)).collect();
                let msg = format!("`{typed}` is not an action here: {}", options.join(", "));
                if scripted {
                    return Err(Stop::Error(msg));
                }
                eprintln!("{msg}");
            }
        }
    }
}

/// The facts of a label, "a(1), b([2, 3]), chose X": split at the commas
/// outside brackets (the labeler separates facts with ", " and writes
/// every comma inside a fact within `()` or `[]`).
fn split_facts(facts: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in facts.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(facts[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(facts[start..].trim().to_string());
    out
}

/// The longest move line read, in bytes: a move is a name or a number, and
/// the bound keeps input such as `< /dev/zero` from filling the memory.
const MAX_MOVE_LINE: usize = 4096;

/// Reads one move line (without its line end); `None` when the input has
/// ended. A longer line than [`MAX_MOVE_LINE`] or one that is not UTF-8 is
/// an error that says so.
fn read_move(input: &mut impl BufRead) -> Result<Option<String>, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    // One byte past the bound, and the line end, tell a long line apart.
    let read = input.take(MAX_MOVE_LINE as u64 + 2).read_until(b'\n', &mut bytes);
    match read {
        Err(e) => return Err(format!("cannot read a move: {e}")),
        Ok(0) => return Ok(None),
        Ok(_) => {}
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    if bytes.len() > MAX_MOVE_LINE {
        return Err(format!("a move line is longer than {MAX_MOVE_LINE} bytes"));
    }
    String::from_utf8(bytes).map(Some).map_err(|_| "a move line is not UTF-8 text".into())
}

/// The action a typed line names: its label (exactly, else ignoring case)
/// or its number from 1.
fn choice(actions: &[String], typed: &str) -> Option<u32> {
    if let Some(i) = actions.iter().position(|a| a == typed) {
        return Some(i as u32);
    }
    if let Some(i) = actions.iter().position(|a| a.eq_ignore_ascii_case(typed)) {
        return Some(i as u32);
    }
    match typed.parse::<usize>() {
        Ok(n) if (1..=actions.len()).contains(&n) => Some(n as u32 - 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{choice, read_move, split_facts, MAX_MOVE_LINE};

    #[test]
    fn facts_split_at_commas_outside_brackets() {
        assert_eq!(
            split_facts("private_card(card(0, 1)), chose Raise of 2, bids([1, 2]), acted(Raise)"),
            ["private_card(card(0, 1))", "chose Raise of 2", "bids([1, 2])", "acted(Raise)"]
        );
        assert_eq!(split_facts("my_card(3)"), ["my_card(3)"]);
    }

    #[test]
    fn a_move_line_is_bounded_and_must_be_text() {
        let mut input = &b"Bet\r\n2\nlast"[..];
        assert_eq!(read_move(&mut input), Ok(Some("Bet".into())));
        assert_eq!(read_move(&mut input), Ok(Some("2".into())));
        assert_eq!(read_move(&mut input), Ok(Some("last".into())));
        assert_eq!(read_move(&mut input), Ok(None));
        let long = vec![b'x'; MAX_MOVE_LINE + 1];
        assert_eq!(read_move(&mut &long[..]), Err(format!("a move line is longer than {MAX_MOVE_LINE} bytes")));
        let mut endless = std::io::BufReader::new(std::io::repeat(0));
        assert!(read_move(&mut endless).unwrap_err().contains("longer than"));
        let fits = vec![b'x'; MAX_MOVE_LINE];
        assert_eq!(read_move(&mut &fits[..]).unwrap().map(|l| l.len()), Some(MAX_MOVE_LINE));
        assert_eq!(read_move(&mut &b"\xff\xfe\n"[..]), Err("a move line is not UTF-8 text".into()));
    }

    #[test]
    fn actions_are_chosen_by_label_any_case_or_number() {
        let actions = ["Pass".to_string(), "Bet".to_string()];
        assert_eq!(choice(&actions, "Bet"), Some(1));
        assert_eq!(choice(&actions, "pass"), Some(0));
        assert_eq!(choice(&actions, "2"), Some(1));
        assert_eq!(choice(&actions, "3"), None);
        assert_eq!(choice(&actions, "0"), None);
        assert_eq!(choice(&actions, "Raise"), None);
    }
}

/// One game of `play --format json`.
#[derive(serde::Serialize)]
pub(crate) struct PlayJson<'a> {
    pub schema: &'static str,
    /// The game's number, from 1.
    pub game: u32,
    pub seed: u64,
    /// The person's seat (`None`: every seat is a person's).
    pub seat: Option<&'a str>,
    pub against: &'a str,
    /// The moves and outcomes, in order.
    pub play: &'a [String],
    pub payoffs: crate::report::Keyed<'a, i64>,
}
json_answers!(PlayJson<'_>);
