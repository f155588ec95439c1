//! Where the strategies of `play` and `simulate` come from: the game solved
//! on the fly by the solver `solve` would choose, a strategy file written
//! by `solve --out`, uniform random play, or a best response to one of
//! these. Each seat takes its own information sets' play from its source.

use std::path::PathBuf;

use galac_runtime::game::GameInfo;
use galac_runtime::ids::{IdSlice, InfosetId, PlayerId};
use galac_runtime::tree::Tree;
use galac_solvers::best_response::best_response;
use galac_solvers::Profile;

use crate::LimitArgs;

/// A seat's strategy, as named on the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// `solved`: the answer of the solver `solve` chooses for the game.
    Solved,
    /// `uniform`: every action equally likely.
    Uniform,
    /// A path: a profile written by `solve --out`.
    File(PathBuf),
    /// `br:SOURCE`: the seat's best response to SOURCE's profile.
    BestResponse(Box<Source>),
}

impl Source {
    /// Reads `solved`, `uniform` (or `random`), `br:SOURCE`, or a file path.
    pub fn parse(text: &str) -> Source {
        match text {
            "solved" | "equilibrium" => Source::Solved,
            "uniform" | "random" => Source::Uniform,
            _ => match text.strip_prefix("br:") {
                Some(rest) => Source::BestResponse(Box::new(Source::parse(rest))),
                None => Source::File(PathBuf::from(text)),
            },
        }
    }

    /// How the source is written back in reports.
    pub fn describe(&self) -> String {
        match self {
            Source::Solved => "solved".into(),
            Source::Uniform => "uniform".into(),
            Source::File(path) => path.display().to_string(),
            Source::BestResponse(of) => format!("br:{}", of.describe()),
        }
    }
}

/// Resolves sources on one tree, solving the game at most once.
pub struct Resolver<'a> {
    pub tree: &'a Tree,
    pub info: &'a GameInfo,
    /// The tree's unique information-set labels (strategy files' keys).
    pub labels: &'a IdSlice<InfosetId, String>,
    /// The limits a solve on the fly keeps (threads, memory, `--quiet`).
    limits: LimitArgs,
    solved: Option<(Profile, String)>,
}

impl<'a> Resolver<'a> {
    /// A resolver that has not solved the game yet.
    pub fn new(tree: &'a Tree, info: &'a GameInfo, labels: &'a IdSlice<InfosetId, String>) -> Resolver<'a> {
        Resolver { tree, info, labels, limits: crate::defaults(), solved: None }
    }

    /// The resolver with the command's limits for a solve on the fly.
    pub fn with_limits(self, limits: &LimitArgs) -> Resolver<'a> {
        Resolver { limits: limits.clone(), ..self }
    }

    /// The name of the solver that solved the game, once it has.
    pub fn solver_name(&self) -> Option<&str> {
        self.solved.as_ref().map(|(_, name)| name.as_str())
    }

    /// The full profile a source describes, as seen by `seat` (a best
    /// response is the seat's own; the other seats keep the profile it
    /// answers).
    pub fn profile(&mut self, source: &Source, seat: PlayerId) -> Result<Profile, String> {
        match source {
            Source::Uniform => Ok(Profile::uniform(self.tree)),
            Source::File(path) => {
                crate::strategy_file::read(path, self.info, self.tree, self.labels, false).map(|l| l.profile)
            }
            Source::Solved => {
                if self.solved.is_none() {
                    let solved = crate::registry::solve_by_default(self.tree, &self.limits)?;
                    self.solved = Some((solved.solution.profile, solved.name));
                }
                Ok(self.solved.as_ref().map(|(p, _)| p.clone()).unwrap_or_else(|| Profile::uniform(self.tree)))
            }
            Source::BestResponse(of) => {
                let base = self.profile(of, seat)?;
                Ok(best_response(self.tree, &base, seat).apply_to(&base))
            }
        }
    }

    /// One profile in which each seat plays its own source's strategy.
    pub fn combine(&mut self, sources: &[Source]) -> Result<Profile, String> {
        let mut out = Profile::uniform(self.tree);
        for (seat, source) in PlayerId::all(sources.len() as u32).zip(sources) {
            if *source == Source::Uniform {
                continue;
            }
            let profile = self.profile(source, seat)?;
            for (set, info) in self.tree.infosets.iter_enumerated() {
                if info.player == seat {
                    out.probs_mut(set).copy_from_slice(profile.probs(set));
                }
            }
        }
        Ok(out)
    }
}

/// Parses a seat name or a 1-based seat number.
pub fn seat(players: &[String], text: &str) -> Result<u32, String> {
    if let Some(i) = players.iter().position(|p| p == text) {
        return Ok(i as u32);
    }
    match text.parse::<usize>() {
        Ok(n) if (1..=players.len()).contains(&n) => Ok(n as u32 - 1),
        _ => Err(format!("`{text}` is not a seat of this game: {} (or 1 to {})", players.join(", "), players.len())),
    }
}
