//! The strategy chart (stacked action probabilities per set) and the
//! convergence chart (curves from `--curve` CSV files on log-log axes).

use std::path::{Path, PathBuf};

use galac_runtime::game::{Game, GameInfo};
use galac_runtime::ids::{InfosetId, PlayerId};
use galac_runtime::tree::Tree;

use super::svg::{Svg, COLOURS};
use crate::cards::CardStyle;
use crate::private_info::facts;

/// Plot area margins: left, right, top, bottom.
const MARGIN: (f64, f64, f64, f64) = (70.0, 170.0, 50.0, 90.0);

/// The player `--player` names, the first by default.
fn chosen_player(info: &galac_runtime::game::GameInfo, select: &crate::explain::Selection) -> Result<PlayerId, String> {
    let player = match &select.player {
        Some(name) => info.players.iter().position(|p| p == name).ok_or_else(|| format!("no player `{name}`"))?,
        None => 0,
    };
    Ok(PlayerId::from_index(player))
}

/// One stacked bar per chosen set of the player: the share of each action.
pub fn strategy(
    info: &GameInfo,
    tree: &Tree,
    select: &crate::explain::Selection,
    limits: &crate::LimitArgs,
    style: &CardStyle,
) -> Result<String, String> {
    let player = chosen_player(info, select)?;
    let labels = crate::report::unique_labels(tree);
    let (profile, source) = crate::explain::profile_for(info, tree, &labels, select.strategy.as_deref(), limits)?;
    let facts_of = |s: InfosetId| facts(&labels[s]).len();
    let fewest = tree.infosets.keys().filter(|&s| tree.infosets[s].player == player).map(facts_of).min().unwrap_or(0);
    let filter = select.filter.as_deref().map(|p| crate::explain::SetFilter::new(p, style));
    let sets: Vec<InfosetId> = tree
        .infosets
        .keys()
        .filter(|&s| tree.infosets[s].player == player)
        .filter(|&s| match &filter {
            Some(filter) => filter.accepts(&labels[s]),
            None => facts_of(s) == fewest,
        })
        .collect();
    if sets.is_empty() {
        return Err("no information set of the player matches".into());
    }
    // By label, numbers by value (`my_card(2)` before `my_card(10)`): hands in order.
    let mut sets = sets;
    sets.sort_by_cached_key(|&s| natural_key(&labels[s]));
    // Actions by name across the sets, in the order met.
    let mut actions: Vec<String> = Vec::new();
    for &s in &sets {
        for a in tree.action_labels(s) {
            if !actions.contains(a) {
                actions.push(a.clone());
            }
        }
    }
    // Bar names: the facts after the player's name; when every set has
    // one fact `tag(x)` of one tag, just `x` (the private card), the tag
    // naming the axis.
    let names: Vec<String> =
        sets.iter().map(|&s| style.rewrite(labels[s].split_once(": ").map_or("", |(_, f)| f))).collect();
    let tag = names[0].split_once('(').map(|(t, _)| format!("{t}("));
    let (names, axis) = match tag {
        Some(t)
            if names.iter().all(|n| n.starts_with(&t) && n.ends_with(')') && facts(&format!(": {n}")).len() == 1) =>
        {
            (names.iter().map(|n| n[t.len()..n.len() - 1].to_string()).collect(), t.trim_end_matches('(').to_string())
        }
        _ => (names, String::new()),
    };
    let (left, right, top, bottom) = MARGIN;
    let bar = 36.0f64;
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(1) as f64;
    let step = (bar * 1.5).max(longest * 6.5 + 8.0);
    let title = format!("{}: strategy of {} ({source})", crate::title(info), info.players[player.index()]);
    let width = (left + right + step * sets.len() as f64).max(title.chars().count() as f64 * 8.5 + 20.0);
    let height = 420.0;
    let plot_h = height - top - bottom;
    let mut svg = Svg::new(width, height);
    axis_y(&mut svg, left, top, plot_h, &[0.0, 0.25, 0.5, 0.75, 1.0], |y| format!("{y}"));
    svg.text(left - 40.0, top + plot_h / 2.0, 12.0, "middle", "P");
    for (i, &s) in sets.iter().enumerate() {
        let x = left + 10.0 + step * i as f64 + (step - bar) / 2.0;
        let mut y = top + plot_h;
        for (a, p) in tree.action_labels(s).iter().zip(profile.probs(s)) {
            let colour = COLOURS[actions.iter().position(|x| x == a).unwrap_or(0) % COLOURS.len()];
            let h = p * plot_h;
            y -= h;
            svg.rect(x, y, bar, h, colour, &format!("{}: {a} {p:.4}", style.rewrite(&labels[s])));
        }
        svg.text(x + bar / 2.0, top + plot_h + 16.0, 11.0, "middle", &names[i]);
    }
    svg.text(left + step * sets.len() as f64 / 2.0, top + plot_h + 40.0, 12.0, "middle", &axis);
    svg.legend(left + 20.0 + step * sets.len() as f64, top + 10.0, &actions);
    Ok(svg.finish(&title))
}

/// A sort key comparing the runs of digits in `text` by their value.
fn natural_key(text: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let (mut word, mut number) = (String::new(), None::<u64>);
    for c in text.chars() {
        match (c.to_digit(10), number) {
            (Some(d), n) => number = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as u64)),
            (None, Some(n)) => {
                key.push((std::mem::take(&mut word), n));
                number = None;
                word.push(c);
            }
            (None, None) => word.push(c),
        }
    }
    key.push((word, number.unwrap_or(0)));
    key
}

/// A y axis with ticks at `ticks` (in [0, 1] of the plot height).
fn axis_y(svg: &mut Svg, left: f64, top: f64, h: f64, ticks: &[f64], label: impl Fn(f64) -> String) {
    svg.line(left, top, left, top + h, "#333");
    for &t in ticks {
        let y = top + h - t * h;
        svg.line(left - 4.0, y, left, y, "#333");
        svg.text(left - 6.0, y + 4.0, 11.0, "end", &label(t));
    }
}

/// A curve: its name, its (iteration, measure) points, the measure's name.
struct Curve(String, Vec<(f64, f64)>, &'static str);

/// A curve file written by `--curve`.
fn read_curve(path: &Path) -> Result<Curve, String> {
    let bytes = crate::read_bounded(path, 1 << 28)?;
    let text = String::from_utf8(bytes).map_err(|_| format!("`{}` is not text", path.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (x, (y, measure)) = col("iteration")
        .zip(col("nash_conv").map(|c| (c, "NashConv")).or_else(|| col("gap").map(|c| (c, "gap"))))
        .ok_or_else(|| {
            format!(
                "`{}` is not a curve written by --curve (no iteration and nash_conv or gap columns)",
                path.display()
            )
        })?;
    let mut points = Vec::new();
    for (i, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        let num = |c: usize| cells.get(c).and_then(|v| v.trim().parse::<f64>().ok());
        let (Some(a), Some(b)) = (num(x), num(y)) else {
            return Err(format!("`{}` line {}: not numbers", path.display(), i + 2));
        };
        points.push((a, b));
    }
    let name = path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().into_owned());
    Ok(Curve(name, points, measure))
}

/// The curves of the files on log-log axes (points at 0 are left out).
pub fn curves(title: &str, files: &[PathBuf]) -> Result<String, String> {
    if files.is_empty() {
        return Err("the curve chart needs at least one --curve FILE".into());
    }
    let curves = files.iter().map(|p| read_curve(p)).collect::<Result<Vec<_>, _>>()?;
    let positive = |(x, y): &&(f64, f64)| *x > 0.0 && *y > 0.0 && y.is_finite();
    let all: Vec<(f64, f64)> = curves.iter().flat_map(|c| c.1.iter().filter(positive).copied()).collect();
    if all.is_empty() {
        return Err("the curves have no positive point to draw on log axes".into());
    }
    let range = |f: fn(&(f64, f64)) -> f64| {
        let lo = all.iter().map(f).fold(f64::INFINITY, f64::min).log10().floor();
        let hi = all.iter().map(f).fold(f64::NEG_INFINITY, f64::max).log10().ceil();
        (lo, if hi > lo { hi } else { lo + 1.0 })
    };
    let ((x0, x1), (y0, y1)) = (range(|p| p.0), range(|p| p.1));
    let (left, right, top, bottom) = MARGIN;
    let (width, height) = (720.0, 440.0);
    let (w, h) = (width - left - right, height - top - bottom);
    let mut svg = Svg::new(width, height);
    let sx = |x: f64| left + (x.log10() - x0) / (x1 - x0) * w;
    let sy = |y: f64| top + h - (y.log10() - y0) / (y1 - y0) * h;
    let yticks: Vec<f64> = (0..=(y1 - y0) as i32).map(|k| k as f64 / (y1 - y0)).collect();
    axis_y(&mut svg, left, top, h, &yticks, |t| format!("1e{}", (y0 + t * (y1 - y0)).round()));
    svg.line(left, top + h, left + w, top + h, "#333");
    for k in 0..=(x1 - x0) as i32 {
        let x = left + k as f64 / (x1 - x0) * w;
        svg.line(x, top + h, x, top + h + 4.0, "#333");
        svg.text(x, top + h + 18.0, 11.0, "middle", &format!("1e{}", x0 as i32 + k));
    }
    svg.text(left + w / 2.0, top + h + 40.0, 12.0, "middle", "iteration");
    let mut measures: Vec<&str> = curves.iter().map(|c| c.2).collect();
    measures.dedup();
    svg.text(18.0, top - 10.0, 12.0, "start", &measures.join(" / "));
    for (i, Curve(_, points, _)) in curves.iter().enumerate() {
        let pts: Vec<(f64, f64)> = points.iter().filter(positive).map(|&(x, y)| (sx(x), sy(y))).collect();
        svg.polyline(&pts, COLOURS[i % COLOURS.len()]);
    }
    let names: Vec<String> = curves.iter().map(|c| c.0.clone()).collect();
    svg.legend(width - right + 20.0, top + 10.0, &names);
    Ok(svg.finish(&format!("{title}: convergence")))
}

/// The 13x13 grid of hands ([`crate::hands`]) of the chosen player's first
/// public state among the selected sets: in each cell, a bar per action as
/// wide as its frequency, the cell's hands and value in its tooltip; cells
/// the player holds no reaching hand of are grey.
pub fn hands(
    info: &GameInfo,
    tree: &Tree,
    select: &crate::explain::Selection,
    limits: &crate::LimitArgs,
    style: &CardStyle,
) -> Result<String, String> {
    let player = chosen_player(info, select)?;
    if !crate::hands::may_have_hands(tree) {
        return Err("the hands chart needs a two-player game whose private information is hands of two cards".into());
    }
    let labels = crate::report::unique_labels(tree);
    let (profile, source) = crate::explain::profile_for(info, tree, &labels, select.strategy.as_deref(), limits)?;
    let public = crate::private_info::public_view(tree);
    let views = galac_solvers::beliefs::explain(tree, &profile);
    let filter = select.filter.as_deref().map(|p| crate::explain::SetFilter::new(p, style));
    let chosen = |s: InfosetId| {
        tree.infosets[s].player == player && filter.as_ref().is_none_or(|filter| filter.accepts(&labels[s]))
    };
    let grids = crate::hands::grids(tree, &profile, &views, &public, chosen);
    let grid = crate::hands::first_of_each_player(&grids)
        .into_iter()
        .next()
        .ok_or("no information set of the player that matches holds a hand of two cards")?;
    Ok(hands_svg(&crate::title(info), &info.players[player.index()], grid, &source))
}

/// The hands chart of a game whose tree is too large to build (the turn):
/// the first decision's hands, solved on the public game from the rules
/// by vector CFR's default run, as `solve` gives them.
pub fn hands_without_tree<G: Game>(
    game: &G,
    select: &crate::explain::Selection,
    limits: &crate::LimitArgs,
) -> Result<String, String> {
    if select.strategy.is_some() || select.filter.is_some() {
        return Err("this game's tree is too large to build: its hands chart is the first decision's, solved on the \
                    public game (a strategy file or a filter is matched to the tree's sets)"
            .into());
    }
    let player = chosen_player(game.info(), select)?;
    let derived = galac_solvers::vector::from_game(game).map_err(|e| e.to_string())?;
    public_hands(game.info(), &derived.game, player, limits)
}

/// [`hands_without_tree`] on the public game derived from the rules.
fn public_hands(
    info: &GameInfo,
    public: &galac_solvers::vector::PublicGame,
    player: PlayerId,
    limits: &crate::LimitArgs,
) -> Result<String, String> {
    let players = &info.players;
    let firsts = crate::hands_public::firsts(public);
    let first = firsts.into_iter().filter(|d| d.player == player.index()).collect::<Vec<_>>();
    if first.is_empty() {
        return Err(format!("{} has no decision in this game", players[player.index()]));
    }
    let (mut run, source) = crate::registry::vcfr::run_default(public, limits)?;
    let grids = crate::hands_public::grids(public, &mut run.cfr, &first);
    let grid = grids.first().ok_or("the private states are not hands of two cards")?;
    Ok(hands_svg(&crate::title(info), &players[player.index()], grid, &format!("solved by {source}")))
}

/// The 13x13 chart of `grid`, the hands of `player` (a name) at one public
/// state; `source` says where the strategy came from.
fn hands_svg(game_title: &str, player: &str, grid: &crate::hands::Grid, source: &str) -> String {
    let (left, top, size) = (40.0f64, 60.0f64, 52.0f64);
    let title = format!("{game_title}: hands of {player} at {} ({source})", grid.line);
    let width = (left + 13.0 * size + 200.0).max(title.chars().count() as f64 * 8.5 + 20.0);
    let mut svg = Svg::new(width, top + 13.0 * size + 60.0);
    for (i, cell) in grid.cells.iter().enumerate() {
        let (x, y) = (left + size * (i % 13) as f64, top + size * (i / 13) as f64);
        if cell.reach > 0.0 {
            let mut at = x;
            for (a, p) in cell.probs.iter().enumerate() {
                let value = cell.action_values.get(a).copied().unwrap_or(f64::NAN);
                let tip = format!("{}: {} {:.3}, value {value:.2}", cell.name, grid.actions[a], p);
                svg.rect(at, y, p * size, size, COLOURS[a % COLOURS.len()], &tip);
                at += p * size;
            }
        } else {
            svg.rect(x, y, size, size, "#e6e6e6", &format!("{}: no hand", cell.name));
        }
        svg.text(x + size / 2.0, y + size / 2.0 + 4.0, 12.0, "middle", &cell.name);
    }
    for k in 0..=13 {
        let at = size * k as f64;
        svg.line(left, top + at, left + 13.0 * size, top + at, "#fff");
        svg.line(left + at, top, left + at, top + 13.0 * size, "#fff");
    }
    let freqs: Vec<String> = grid.actions.iter().zip(&grid.probs).map(|(a, p)| format!("{a} {p:.3}")).collect();
    svg.text(left, top + 13.0 * size + 24.0, 12.0, "start", &format!("frequencies: {}", freqs.join(", ")));
    svg.text(
        left,
        top + 13.0 * size + 42.0,
        12.0,
        "start",
        &format!("{} hands, value {:.3}", grid.combos.len(), grid.value),
    );
    svg.legend(left + 13.0 * size + 20.0, top + 10.0, &grid.actions);
    svg.finish(&title)
}
