//! Writing a game tree in the formats of other tools: Gambit's extensive-form
//! files ([`efg`]) and Graphviz graphs ([`dot`]).
//!
//! Both writers read the labels a tree records when it is built with
//! [`BuildOptions::labels`](galac_runtime::tree::BuildOptions) set; without them they
//! fall back to action numbers. They write to any [`std::io::Write`] and
//! buffer internally; making the output file appear only when complete is
//! the caller's job.

pub mod dot;
pub mod efg;
mod labels;

pub use dot::{write_dot, DotError, DotOptions, DEFAULT_DOT_MAX_NODES};
pub use efg::write_efg;

/// A tiny game for the writers' tests: chance deals `"low"` (1/3) or
/// `high\` (2/3) to the hider, who keeps or swaps it; the seeker, seeing
/// nothing, guesses the card and wins 1 if right. Labels hold quotes and
/// backslashes on purpose.
#[cfg(test)]
pub(crate) mod test_game {
    use galac_runtime::game::{Game, GameError, GameInfo, Node};
    use galac_runtime::info::{InfoInterner, InfoState};
    use galac_runtime::rational::Ratio;
    use galac_runtime::tree::{build, BuildOptions, Tree};

    pub struct GuessGame;

    fn info() -> &'static GameInfo {
        static INFO: std::sync::OnceLock<GameInfo> = std::sync::OnceLock::new();
        INFO.get_or_init(|| GameInfo {
            name: "guess".into(),
            players: vec!["hider".into(), "seeker".into()],
            params: Vec::new(),
            program: 0,
        })
    }

    impl Game for GuessGame {
        type State = Vec<u32>;
        type Specialised = Self;

        fn info(&self) -> &GameInfo {
            info()
        }

        fn root(&self) -> Result<Vec<u32>, GameError> {
            Ok(Vec::new())
        }

        fn advance(&self, s: &mut Vec<u32>, info: &mut InfoInterner) -> Result<Node, GameError> {
            Ok(match s.len() {
                0 => Node::Chance { n_outcomes: 2 },
                1 => {
                    let state = info.push(InfoState::EMPTY, &[0, u64::from(s[0])]);
                    let (infoset, _) = info.infoset(0, state, &[0, 1]);
                    Node::Decision { player: 0, infoset, n_actions: 2 }
                }
                2 => {
                    let (infoset, _) = info.infoset(1, InfoState::EMPTY, &[0, 1]);
                    Node::Decision { player: 1, infoset, n_actions: 2 }
                }
                _ => Node::Terminal,
            })
        }

        fn apply(&self, s: &mut Vec<u32>, action: u32, _: &mut InfoInterner) -> Result<(), GameError> {
            s.push(action);
            Ok(())
        }

        fn chance_probs(&self, _: &Vec<u32>, out: &mut Vec<Ratio>) {
            out.clear();
            out.extend([Ratio { num: 1, den: 3 }, Ratio { num: 2, den: 3 }]);
        }

        fn payoffs<'a>(&self, s: &'a Vec<u32>, buf: &'a mut Vec<i64>) -> &'a [i64] {
            let card = s[0] ^ s[1];
            let seeker = if s[2] == card { 1 } else { -1 };
            buf.clear();
            buf.extend([-seeker, seeker]);
            buf
        }

        fn action_label(&self, s: &Vec<u32>, action: u32) -> String {
            let labels: [&str; 2] = match s.len() {
                0 => ["\"low\"", "high\\"],
                1 => ["keep", "swap"],
                _ => ["guess low", "guess high"],
            };
            labels[action as usize].to_string()
        }

        fn infoset_label(&self, info: &InfoInterner, infoset: u32) -> String {
            let key = info.infoset_key(infoset);
            if key.player == 1 {
                return "sees \\ nothing".into();
            }
            match info.facts(key.state).first().and_then(|f| f.get(1)) {
                Some(0) => "holds \"low\"".into(),
                _ => "holds high\\".into(),
            }
        }
    }

    /// The test game's tree, with labels.
    pub fn build_labelled(game: &GuessGame) -> Tree {
        let opts = BuildOptions { labels: true, ..BuildOptions::default() };
        build(game, &opts).expect("the test game builds").0
    }
}
