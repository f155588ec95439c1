//! The double oracle's `--curve` file: one CSV row per iteration, rewritten
//! during the run with what its progress tells, then whole at the end.

use galac_solvers::double_oracle::DoSolution;
use galac_solvers::solver::Progress;

/// The curve file's columns.
const CURVE_HEADER: &str = "iteration,seconds,lower,upper,gap,lp_value,sequences1,sequences2,nodes,temp_leaves,explored,lp_seconds,br_seconds,expand_seconds\n";

/// How often the curve file is rewritten during a run, in seconds.
const CURVE_SECONDS: f64 = 10.0;

/// `--curve` to a file rewritten during the run (every [`CURVE_SECONDS`],
/// with the columns the progress tells), so that a run stopped from
/// outside still leaves its bounds over time.
pub(super) fn curve_as_it_goes(path: &std::path::Path) -> Box<dyn FnMut(&Progress) + '_> {
    let mut partial = String::new();
    let mut written = std::time::Instant::now();
    Box::new(move |p: &Progress| {
        partial += &partial_row(p);
        if written.elapsed().as_secs_f64() >= CURVE_SECONDS {
            written = std::time::Instant::now();
            let csv = format!("{CURVE_HEADER}{partial}");
            // An error here is reported by the final write.
            let _ = crate::write_atomically(path, |mut f| std::io::Write::write_all(&mut f, csv.as_bytes()));
        }
    })
}

/// A curve row during the run: what the progress tells (iteration,
/// seconds, bounds, gap), the other columns empty until the final write.
fn partial_row(p: &Progress) -> String {
    let (lo, hi) = p.bounds.map_or((String::new(), String::new()), |(l, h)| (l.to_string(), h.to_string()));
    let gap = p.bounds.map_or(String::new(), |(l, h)| (h - l).to_string());
    format!("{},{},{lo},{hi},{gap},,,,,,,,,\n", p.iteration, p.seconds)
}

/// The curve file: one CSV row per iteration.
pub(super) fn curve_csv(sol: &DoSolution) -> String {
    let mut out = String::from(CURVE_HEADER);
    let num = |x: Option<f64>| x.map_or(String::new(), |x| x.to_string());
    for i in &sol.iterations {
        let gap = i.upper.zip(i.lower).map(|(u, l)| u - l);
        out += &format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            i.iteration,
            i.seconds,
            num(i.lower),
            num(i.upper),
            num(gap),
            i.lp_value,
            i.sequences[0],
            i.sequences[1],
            i.nodes,
            i.temp_leaves,
            i.explored,
            i.lp_seconds,
            i.br_seconds,
            i.expand_seconds
        );
    }
    out
}
