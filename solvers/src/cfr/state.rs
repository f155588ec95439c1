//! Everything a CFR run carries from one iteration to the next, in flat
//! per-slot arrays (the treeplex layout), and its byte encoding for
//! checkpoints: a resumed run continues exactly, bit for bit.

use galac_runtime::tree::Tree;

use crate::treeplex::Treeplex;
use crate::Profile;

/// The state of a CFR run after `iteration` iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct CfrState {
    /// Iterations done.
    pub iteration: u64,
    /// Seconds spent in earlier runs (a resumed run's clock starts there).
    pub seconds: f64,
    /// Accumulated regrets, per slot.
    pub regrets: Vec<f64>,
    /// Weighted sums of the player's own reach times the current strategy,
    /// per slot: normalised per set, the average strategy.
    pub average: Vec<f64>,
    /// The current strategy, per slot.
    pub current: Vec<f64>,
    /// The prediction (last instantaneous regret), per slot; empty unless
    /// the variant is predictive.
    pub prediction: Vec<f64>,
}

/// What identifies the tree and variant a checkpoint belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    pub variant: String,
    pub nodes: u64,
    pub slots: u64,
    /// [`Tree::content_digest`]: the game's payoffs and probabilities too.
    pub digest: u32,
}

impl Fingerprint {
    /// The fingerprint of a run of `variant` on `tree`.
    pub fn of(tree: &Tree, variant: &super::Variant) -> Fingerprint {
        Fingerprint {
            variant: variant.name(),
            nodes: tree.n_nodes() as u64,
            slots: tree.infosets.iter().map(|i| u64::from(i.n_actions)).sum(),
            digest: tree.content_digest(),
        }
    }
}

/// A set's average strategy from its sums (each over their total), or
/// `None` where the total is not positive (the set was never reached).
/// What every reader of the sums normalises by.
pub fn normalised(sums: &[f64]) -> Option<impl Iterator<Item = f64> + '_> {
    let total: f64 = sums.iter().sum();
    (total > 0.0).then(|| sums.iter().map(move |x| x / total))
}

/// Normalises the average-strategy sums `average` (per slot) into
/// `profile`, uniform where a set's sums are 0 (no allocation: checks
/// reuse the profile).
pub fn average_into(tree: &Tree, plex: &Treeplex, average: &[f64], profile: &mut Profile) {
    for (set, info) in tree.infosets.iter_enumerated() {
        let s = plex.slots.first_slot[set].index();
        let probs = profile.probs_mut(set);
        match normalised(&average[s..s + info.n_actions as usize]) {
            Some(avg) => probs.iter_mut().zip(avg).for_each(|(p, x)| *p = x),
            None => probs.fill(1.0 / info.n_actions as f64),
        }
    }
}

/// The first bytes of a checkpoint.
const MAGIC: &[u8; 12] = b"galac-cfr-2\n";

impl CfrState {
    /// The state before the first iteration: no regret, uniform play.
    pub fn new(tree: &Tree, plex: &Treeplex, predictive: bool) -> CfrState {
        let n = plex.slots.len();
        CfrState {
            iteration: 0,
            seconds: 0.0,
            regrets: vec![0.0; n],
            average: vec![0.0; n],
            current: Profile::uniform(tree).probs,
            prediction: if predictive { vec![0.0; n] } else { Vec::new() },
        }
    }

    /// Bytes of the per-slot arrays of a run over `slots` slots.
    pub fn estimate_bytes(slots: usize, predictive: bool) -> u64 {
        8 * slots as u64 * if predictive { 4 } else { 3 }
    }

    /// The average strategy, and the sets it never reaches (uniform there).
    pub fn average_profile(&self, tree: &Tree, plex: &Treeplex) -> (Profile, Vec<galac_runtime::ids::InfosetId>) {
        let mut profile = Profile::uniform(tree);
        average_into(tree, plex, &self.average, &mut profile);
        let unreached = tree
            .infosets
            .keys()
            .filter(|&set| {
                let s = plex.slots.first_slot[set].index();
                let n = tree.infosets[set].n_actions as usize;
                normalised(&self.average[s..s + n]).is_none()
            })
            .collect();
        (profile, unreached)
    }

    /// The checkpoint bytes: a header naming the variant and tree, then
    /// every number in little-endian binary.
    pub fn to_bytes(&self, fp: &Fingerprint) -> Vec<u8> {
        let mut out = Vec::with_capacity(64 + 8 * (3 * self.regrets.len() + self.prediction.len()));
        out.extend_from_slice(MAGIC);
        put_u64(&mut out, fp.variant.len() as u64);
        out.extend_from_slice(fp.variant.as_bytes());
        put_u64(&mut out, fp.nodes);
        put_u64(&mut out, fp.slots);
        put_u64(&mut out, u64::from(fp.digest));
        put_u64(&mut out, self.iteration);
        out.extend_from_slice(&self.seconds.to_le_bytes());
        put_u64(&mut out, self.prediction.len() as u64);
        for x in self.regrets.iter().chain(&self.average).chain(&self.current).chain(&self.prediction) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Reads checkpoint bytes written for the same variant and tree.
    pub fn from_bytes(bytes: &[u8], fp: &Fingerprint) -> Result<CfrState, String> {
        let mut r = Reader { bytes, at: 0 };
        match r.take(MAGIC.len())? {
            m if m == MAGIC => {}
            b"galac-cfr-1\n" => {
                return Err(
                    "the checkpoint was written by an older galac, without the game's checksum; start the run again"
                        .into(),
                )
            }
            _ => return Err("not a galac CFR checkpoint".into()),
        }
        let name_len = r.u64()? as usize;
        let variant = String::from_utf8_lossy(r.take(name_len)?).into_owned();
        let (nodes, slots, digest) = (r.u64()?, r.u64()?, r.u64()?);
        let found = Fingerprint { variant, nodes, slots, digest: digest as u32 };
        if (&found.variant, found.nodes, found.slots) != (&fp.variant, fp.nodes, fp.slots)
            || digest > u64::from(u32::MAX)
        {
            return Err(format!(
                "the checkpoint was written by {} on a tree of {} nodes and {} action slots, not by {} on this one ({} nodes, {} slots)",
                found.variant, found.nodes, found.slots, fp.variant, fp.nodes, fp.slots
            ));
        }
        if found.digest != fp.digest {
            return Err(format!(
                "the checkpoint was written for a game with other payoffs or chance probabilities (other params?): its \
                 checksum is {:08x}, this game's {:08x}",
                found.digest, fp.digest
            ));
        }
        let iteration = r.u64()?;
        let seconds = f64::from_le_bytes(r.array()?);
        let n_pred = r.u64()? as usize;
        if n_pred != 0 && n_pred as u64 != slots {
            return Err("the checkpoint is damaged".into());
        }
        let n = slots as usize;
        let mut vec =
            |len: usize| -> Result<Vec<f64>, String> { (0..len).map(|_| r.array().map(f64::from_le_bytes)).collect() };
        let state = CfrState {
            iteration,
            seconds,
            regrets: vec(n)?,
            average: vec(n)?,
            current: vec(n)?,
            prediction: vec(n_pred)?,
        };
        if r.at != bytes.len() {
            return Err("the checkpoint has trailing bytes".into());
        }
        let values = [&state.regrets, &state.average, &state.current, &state.prediction];
        if values.iter().any(|v| v.iter().any(|x| !x.is_finite())) || !seconds.is_finite() {
            return Err("the checkpoint is damaged: it holds a value that is not a finite number".into());
        }
        Ok(state)
    }
}

fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}

/// A cursor over checkpoint bytes.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or("the checkpoint is truncated")?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn array(&mut self) -> Result<[u8; 8], String> {
        let mut a = [0u8; 8];
        a.copy_from_slice(self.take(8)?);
        Ok(a)
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.array().map(u64::from_le_bytes)
    }
}
