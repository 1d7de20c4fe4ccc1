//! What the runner prints: the set-up before the first game, one line per finished game and a
//! progress line, standings every few games, the SPRT's decision and a final block, in
//! cutechess-cli's and fastchess's wording so that tools and eyes used to those read it at once.
//! Every block is made here as text; [`super::run`](mod@super::run) prints it in one write.

use super::openings::Order;
use super::schedule::Mode;
use super::setup::Tournament;
use super::stats::{Pentanomial, Sprt, Verdict, Wdl};
use super::GameRecord;
use crate::client::{Sync, TimeCommand};
use crate::game::Color;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// The lines printed before the first game: the tournament, the shard, what a resumed run
/// keeps, the engines, openings, adjudication and the SPRT.
pub fn header(t: &Tournament) -> String {
    let mut out = tournament_line(t, t.schedule.len());
    out.push_str(&shard_line(t));
    out.push_str(&resume_line(t));
    for i in 0..t.engines.len() {
        out.push_str(&engine_line(t, i));
    }
    out.push_str(&openings_line(t));
    out.push_str(&adjudication_line(t));
    if let Some(s) = &t.sprt {
        out.push_str(&sprt_settings_line(s));
        if t.shard.is_some() {
            out.push_str(" (a shard plays its whole part: the verdict is the merge's)");
        }
        out.push('\n');
    }
    out
}

/// `Shard: 2/3 (from SLURM_ARRAY_TASK_ID), 4 of 12 games, tournament 3f0c…`; with no shard,
/// only the tournament id.
fn shard_line(t: &Tournament) -> String {
    match &t.shard {
        Some(p) => format!(
            "Shard: {} (from {}), {} of {} games, tournament {}\n",
            p.shard,
            p.source,
            t.games.len(),
            t.schedule.len(),
            t.identity.id
        ),
        None => String::new(),
    }
}

/// `Resume: 37 of 100 games kept from games.jsonl, 63 to play`, with `--resume`.
fn resume_line(t: &Tournament) -> String {
    let Some(r) = &t.resume else { return String::new() };
    let kept = r.kept.len();
    format!(
        "Resume: {kept} of {} games kept from {}, {} to play\n",
        t.games.len(),
        r.path.display(),
        t.games.len().saturating_sub(kept)
    )
}

/// `Tournament: Base+MLP, round-robin, 2 engines, 3 rounds, 6 games, concurrency 1`.
fn tournament_line(t: &Tournament, total: usize) -> String {
    let mode = match t.mode {
        Mode::RoundRobin => "round-robin",
        Mode::Gauntlet => "gauntlet",
    };
    format!(
        "Tournament: {}, {mode}, {} engines, {} round{}, {total} games, concurrency {}\n",
        t.game_type,
        t.engines.len(),
        t.rounds,
        if t.rounds == 1 { "" } else { "s" },
        t.concurrency
    )
}

/// `Engine 1: A = `comb` (id comb 0.1.0), depth=2, options MaxHelperThreads=None`.
fn engine_line(t: &Tournament, i: usize) -> String {
    let (e, id) = (&t.engines[i], &t.ids[i]);
    let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!(
        "Engine {}: {} = `{}` (id {}), {}{}{}{}\n",
        i + 1,
        e.name,
        e.command_line(),
        if id.is_empty() { "none" } else { id },
        e.limit.describe(),
        if e.sync == Sync::Play { ", sync=play" } else { "" },
        if e.time_command == TimeCommand::Seconds { ", timecmd=seconds" } else { "" },
        if options.is_empty() { String::new() } else { format!(", options {}", options.join(" ")) }
    )
}

/// `Openings: book.txt (50, sequential), each played twice with colours swapped`; with
/// `--opening-plies`, `(40, first 8 plies, 10 skipped, sequential)`.
fn openings_line(t: &Tournament) -> String {
    let Some(book) = &t.book else {
        return "Openings: none (every game from the empty board, colours swapped in pairs)\n".to_string();
    };
    let plies = match book.plies {
        Some(n) => format!(", first {n} plies, {} skipped", book.skipped),
        None => String::new(),
    };
    let order = match book.order {
        Order::Sequential => "sequential".to_string(),
        Order::Random => format!("random, seed {}", book.seed),
    };
    format!(
        "Openings: {} ({}{plies}, {order}), each played twice with colours swapped\n",
        book.path.display(),
        book.count
    )
}

/// `Adjudication: draw at 300 plies, draw at 3 repetitions`.
fn adjudication_line(t: &Tournament) -> String {
    let repetition = match t.rules.repetitions {
        0 => "no repetition rule".to_string(),
        n => format!("draw at {n} repetitions"),
    };
    let length = match t.rules.max_plies {
        0 => "no ply limit".to_string(),
        n => format!("draw at {n} plies"),
    };
    format!("Adjudication: {length}, {repetition}\n")
}

/// What a finished game adds to the output: its line and the progress line, after `done` of
/// `total` games, `kept` of them from before a resume.
pub fn game_lines(record: &GameRecord, done: usize, total: usize, kept: usize, elapsed: Duration) -> String {
    format!("{}\n{}\n", finished_line(record), progress_line(done, total, kept, elapsed))
}

/// The block at the end of a run: the final standings of `names` after their games, how games
/// ended, the SPRT's outcome (with a test) and the pace: `played` games (the others were kept
/// from before a resume) in `elapsed`.
pub fn final_block(
    names: &[String],
    standings: &Standings,
    total: usize,
    sprt: Option<(&Sprt, Verdict)>,
    played: usize,
    elapsed: Duration,
) -> String {
    let mut text = format!(
        "\nResults of {} after {} of {total} games:\n{}{}\n",
        names.join(", "),
        standings.games(),
        standings.block(sprt.map(|(s, _)| s)),
        standings.reasons_line()
    );
    if let Some((_, verdict)) = sprt {
        text.push_str(&sprt_final_line(verdict));
        text.push('\n');
    }
    text.push_str(&played_line(played, elapsed));
    text.push('\n');
    text
}

/// `Finished game 17 (A vs B): 1-0 {WhiteWins: queen surrounded, ply 63}`.
pub fn finished_line(record: &GameRecord) -> String {
    let p = &record.played;
    format!(
        "Finished game {} ({} vs {}): {} {{{}: {}, ply {}}}",
        record.number,
        record.white_name,
        record.black_name,
        p.result.score(),
        p.result.state(),
        p.termination.detail,
        p.moves.len()
    )
}

/// `1h 02m 03s`, `2m 03s` or `3s`.
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, s) => format!("{s}s"),
        (0, m, s) => format!("{m}m {s:02}s"),
        (h, m, s) => format!("{h}h {m:02}m {s:02}s"),
    }
}

/// Games per minute of `games` played in `elapsed` (0 when no time has passed).
fn games_per_minute(games: usize, elapsed: Duration) -> f64 {
    let minutes = elapsed.as_secs_f64() / 60.0;
    if minutes > 0.0 {
        games as f64 / minutes
    } else {
        0.0
    }
}

/// `14.2 games/min`, or `2.3 games/hour` for a pace below 0.1 games a minute: long matches
/// (deep fixed-depth searches) would otherwise print `0.0 games/min`.
fn pace_text(games_per_minute: f64) -> String {
    if games_per_minute > 0.0 && games_per_minute < 0.1 {
        format!("{} games/hour", number(games_per_minute * 60.0, 1))
    } else {
        format!("{} games/min", number(games_per_minute, 1))
    }
}

/// `Progress: 17/40 games (42.5 %), 1m 12s elapsed, 14.2 games/min, ETA 1m 37s`. The pace is
/// that of the games played in `elapsed`: `done` less the `kept` ones of a resumed run.
pub fn progress_line(done: usize, total: usize, kept: usize, elapsed: Duration) -> String {
    let rate = games_per_minute(done.saturating_sub(kept), elapsed);
    let eta = match Duration::try_from_secs_f64((total - done.min(total)) as f64 / rate * 60.0) {
        Ok(eta) if rate > 0.0 => duration_text(eta),
        _ => "?".to_string(),
    };
    format!(
        "Progress: {done}/{total} games ({:.1} %), {} elapsed, {}, ETA {eta}",
        100.0 * done as f64 / total.max(1) as f64,
        duration_text(elapsed),
        pace_text(rate)
    )
}

/// `x` with `decimals` decimals, or `n/a` when it is not a number or infinite.
///
/// Small samples make statistics undefined: a clean sweep has an infinite Elo difference, and
/// the error margin of 1 - 1 - 0 maps a score interval reaching past 0 and 1 to Elo (NaN).
/// Readers of the report (and scripts that parse it) get a word instead of `NaN` or `inf`.
pub fn number(x: f64, decimals: usize) -> String {
    if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "n/a".to_string()
    }
}

/// `H0`, `H1` or `none`.
pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::H0 => "H0",
        Verdict::H1 => "H1",
        Verdict::Continue => "none",
    }
}

/// `SPRT: elo0=0.00 elo1=5.00 alpha=0.05 beta=0.05, bounds (-2.94, 2.94), pentanomial GSPRT`.
pub fn sprt_settings_line(s: &Sprt) -> String {
    format!(
        "SPRT: elo0={} elo1={} alpha={} beta={}, bounds ({}, {}), pentanomial GSPRT",
        number(s.elo0, 2),
        number(s.elo1, 2),
        s.alpha,
        s.beta,
        number(s.lower(), 2),
        number(s.upper(), 2)
    )
}

/// `SPRT: H1 accepted after 16 games (LLR 3.35)`, the moment the test decides.
pub fn sprt_decision_line(verdict: Verdict, games: usize, llr: f64) -> String {
    format!("SPRT: {} accepted after {games} games (LLR {})", verdict_name(verdict), number(llr, 2))
}

/// `SPRT: H1 accepted` or `SPRT: no verdict yet`, at the end of the run.
pub fn sprt_final_line(verdict: Verdict) -> String {
    match verdict {
        Verdict::Continue => "SPRT: no verdict yet".to_string(),
        v => format!("SPRT: {} accepted", verdict_name(v)),
    }
}

/// `Played 6 games in 12s (30.0 games/min)`.
pub fn played_line(games: usize, elapsed: Duration) -> String {
    let pace = pace_text(games_per_minute(games, elapsed));
    format!("Played {games} games in {} ({pace})", duration_text(elapsed))
}

/// `W - L - D [score] N`, as cutechess writes a score.
fn score_text(w: &Wdl) -> String {
    format!("{} - {} - {} [{:.3}] {}", w.wins, w.losses, w.draws, w.score(), w.games())
}

/// The results of one pairing, from its first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Index of the first engine.
    pub first: usize,
    /// Index of the second engine.
    pub second: usize,
    /// Results of the first engine.
    pub wdl: Wdl,
    /// Results of the first engine when it played White.
    pub as_white: Wdl,
    /// Results of the first engine when it played Black.
    pub as_black: Wdl,
    /// Results of White, whoever that was.
    pub white_side: Wdl,
    /// Finished pairs of games, for the first engine.
    pub ptnml: Pentanomial,
    /// The first engine's score in pairs with one game finished, by pair.
    pending: HashMap<usize, f64>,
}

fn add_points(w: &mut Wdl, points: f64) {
    if points == 1.0 {
        w.wins += 1;
    } else if points == 0.0 {
        w.losses += 1;
    } else {
        w.draws += 1;
    }
}

impl PairingStats {
    fn add(&mut self, record: &GameRecord) {
        let first_color = if record.white == self.first { Color::White } else { Color::Black };
        let points = record.played.result.points(first_color);
        add_points(&mut self.wdl, points);
        add_points(if first_color == Color::White { &mut self.as_white } else { &mut self.as_black }, points);
        add_points(&mut self.white_side, record.played.result.points(Color::White));
        if let Some(other) = self.pending.remove(&record.pair) {
            self.ptnml.add(other, points);
        } else {
            self.pending.insert(record.pair, points);
        }
    }

    /// The block for this pairing: scores, Elo, LOS, draws, pentanomial and, with a test, LLR.
    pub fn block(&self, names: &[String], sprt: Option<&Sprt>) -> String {
        let (a, b) = (&names[self.first], &names[self.second]);
        let w = &self.wdl;
        let mut out = format!("Score of {a} vs {b}: {}\n", score_text(w));
        out.push_str(&format!("...      {a} playing White: {}\n", score_text(&self.as_white)));
        out.push_str(&format!("...      {a} playing Black: {}\n", score_text(&self.as_black)));
        out.push_str(&format!("...      White vs Black: {}\n", score_text(&self.white_side)));
        out.push_str(&format!(
            "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %\n",
            number(w.elo(), 1),
            number(w.elo_margin(), 1),
            number(100.0 * w.los(), 1),
            number(100.0 * w.draw_ratio(), 1)
        ));
        let p = &self.ptnml;
        if p.pairs() > 0 {
            out.push_str(&format!(
                "Pairs: Elo {} +/- {}, nElo: {} +/- {}, PairsRatio: {}\n",
                number(p.elo(), 1),
                number(p.elo_margin(), 1),
                number(p.nelo(), 1),
                number(p.nelo_margin(), 1),
                number(p.pairs_ratio(), 2)
            ));
            let c = p.counts();
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}\n",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                number(p.wl as f64 / p.dd as f64, 2)
            ));
        }
        if let Some(sprt) = sprt {
            let llr = sprt.llr_pentanomial(p);
            out.push_str(&format!(
                "LLR: {} ({}%) ({}, {}) [{}, {}]\n",
                number(llr, 2),
                number(sprt.progress(llr), 1),
                number(sprt.lower(), 2),
                number(sprt.upper(), 2),
                number(sprt.elo0, 2),
                number(sprt.elo1, 2)
            ));
        }
        out
    }
}

/// The count of a tournament as games come in: the standings and the SPRT's state. A live run
/// and a merge of shards both count through it, so that they report alike.
pub struct TournamentTally<'a> {
    names: Vec<String>,
    standings: Standings,
    sprt: Option<&'a Sprt>,
    verdict: Verdict,
    /// Whether the test decides (not in a shard, which leaves the verdict to the merge).
    decides: bool,
    /// Games counted from before a resume, not played by this run.
    kept: usize,
}

impl<'a> TournamentTally<'a> {
    /// Nothing counted yet, for engines `names` and `pairings`; `decides` says whether `sprt`
    /// may reach a verdict.
    pub fn new(
        names: Vec<String>,
        pairings: &[(usize, usize)],
        sprt: Option<&'a Sprt>,
        decides: bool,
    ) -> TournamentTally<'a> {
        let standings = Standings::new(names.clone(), pairings);
        TournamentTally { names, standings, sprt, verdict: Verdict::Continue, decides, kept: 0 }
    }

    /// Counts the games a resumed run keeps, in the order they finished, as [`TournamentTally::add`]
    /// counted them before the run was interrupted. Returns the SPRT's verdict line if the test
    /// decides among them (the run then plays no more); the games after that are not counted.
    pub fn keep(&mut self, records: &[GameRecord]) -> Option<String> {
        for record in records {
            self.kept += 1;
            if let Some(decision) = self.add(record) {
                return Some(decision);
            }
        }
        None
    }

    /// Games counted from before a resume.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// Counts a finished game, then lets the SPRT look at the pairs so far. Returns the line
    /// that announces its verdict, the moment it reaches one (the run stops there).
    pub fn add(&mut self, record: &GameRecord) -> Option<String> {
        self.standings.add(record);
        let sprt = self.sprt.filter(|_| self.decides && self.verdict == Verdict::Continue)?;
        let llr = sprt.llr_pentanomial(&self.standings.pairings()[0].ptnml);
        self.verdict = sprt.verdict(llr);
        (self.verdict != Verdict::Continue)
            .then(|| sprt_decision_line(self.verdict, self.standings.games(), llr) + "\n")
    }

    /// The standings so far.
    pub fn standings(&self) -> &Standings {
        &self.standings
    }

    /// The standings block so far (with the test's LLR).
    pub fn block(&self) -> String {
        self.standings.block(self.sprt)
    }

    /// The final block, after `elapsed`, of a tournament of `total` games.
    pub fn final_block(&self, total: usize, elapsed: Duration) -> String {
        let (sprt, played) = (self.sprt.map(|s| (s, self.verdict)), self.standings.games() - self.kept);
        final_block(&self.names, &self.standings, total, sprt, played, elapsed)
    }
}

/// Running totals over the whole tournament.
#[derive(Clone, Debug)]
pub struct Standings {
    names: Vec<String>,
    pairings: Vec<PairingStats>,
    engines: Vec<Wdl>,
    games: usize,
    reasons: BTreeMap<&'static str, usize>,
}

impl Standings {
    /// Empty standings for engines `names` and the tournament's `pairings`.
    pub fn new(names: Vec<String>, pairings: &[(usize, usize)]) -> Standings {
        let pairings =
            pairings.iter().map(|&(first, second)| PairingStats { first, second, ..Default::default() }).collect();
        let engines = vec![Wdl::default(); names.len()];
        Standings { names, pairings, engines, games: 0, reasons: BTreeMap::new() }
    }

    /// Counts a finished game.
    pub fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        *self.reasons.entry(record.played.termination.reason).or_default() += 1;
        let result = record.played.result;
        add_points(&mut self.engines[record.white], result.points(Color::White));
        add_points(&mut self.engines[record.black], result.points(Color::Black));
        let pair = (record.white.min(record.black), record.white.max(record.black));
        if let Some(p) = self.pairings.iter_mut().find(|p| (p.first.min(p.second), p.first.max(p.second)) == pair) {
            p.add(record);
        }
    }

    /// Games counted.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The statistics of every pairing.
    pub fn pairings(&self) -> &[PairingStats] {
        &self.pairings
    }

    /// Results of engine `index` against everyone.
    pub fn engine(&self, index: usize) -> Wdl {
        self.engines[index]
    }

    /// How many games ended for each reason.
    pub fn reasons(&self) -> &BTreeMap<&'static str, usize> {
        &self.reasons
    }

    /// The standings block: every pairing that has games, then (with three engines or more) a
    /// ranking by score against the field. `sprt` applies to a two-engine match.
    pub fn block(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        for p in self.pairings.iter().filter(|p| p.wdl.games() > 0) {
            out.push_str(&p.block(&self.names, sprt.filter(|_| self.pairings.len() == 1)));
        }
        if self.names.len() > 2 {
            let width = self.names.iter().map(|n| n.chars().count()).max().unwrap_or(4).max(4);
            out.push_str(&format!(
                "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>7} {:>7}\n",
                "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
            ));
            let mut order: Vec<usize> = (0..self.names.len()).collect();
            order.sort_by(|&a, &b| self.engines[b].score().total_cmp(&self.engines[a].score()));
            for (rank, &i) in order.iter().enumerate() {
                let w = &self.engines[i];
                out.push_str(&format!(
                    "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>6}% {:>6}%\n",
                    rank + 1,
                    self.names[i],
                    number(w.elo(), 1),
                    number(w.elo_margin(), 1),
                    w.games(),
                    number(100.0 * w.score(), 1),
                    number(100.0 * w.draw_ratio(), 1)
                ));
            }
        }
        out
    }

    /// `Terminations: surrounded 12, max-plies 3` (most frequent first).
    pub fn reasons_line(&self) -> String {
        let mut reasons: Vec<(&&str, &usize)> = self.reasons.iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let parts: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        format!("Terminations: {}", if parts.is_empty() { "none".to_string() } else { parts.join(", ") })
    }
}

#[cfg(test)]
mod tests {
    use super::super::referee::{GameResult, Termination};
    use super::super::tests::sample;
    use super::*;

    fn game(number: usize, pair: usize, white: usize, black: usize, result: GameResult) -> GameRecord {
        let mut r = sample();
        r.number = number;
        r.pair = pair;
        r.white = white;
        r.black = black;
        r.played.result = result;
        r.played.termination = Termination { reason: "surrounded", detail: "queen surrounded".into() };
        r
    }

    #[test]
    fn live_lines() {
        let mut r = game(17, 8, 0, 1, GameResult::WhiteWins);
        r.white_name = "A".into();
        assert_eq!(finished_line(&r), "Finished game 17 (A vs B): 1-0 {WhiteWins: queen surrounded, ply 3}");
        assert_eq!(
            progress_line(10, 40, 0, Duration::from_secs(120)),
            "Progress: 10/40 games (25.0 %), 2m 00s elapsed, 5.0 games/min, ETA 6m 00s"
        );
        // After a resume that kept 4 games, the pace is that of the 6 played since.
        assert_eq!(
            progress_line(10, 40, 4, Duration::from_secs(120)),
            "Progress: 10/40 games (25.0 %), 2m 00s elapsed, 3.0 games/min, ETA 10m 00s"
        );
        assert_eq!(duration_text(Duration::from_secs(3723)), "1h 02m 03s");
    }

    #[test]
    fn slow_matches_count_games_per_hour() {
        // 10 games in 5h 16m 38s: 0.03 games/min would print as 0.0.
        assert_eq!(
            played_line(10, Duration::from_secs(5 * 3600 + 16 * 60 + 38)),
            "Played 10 games in 5h 16m 38s (1.9 games/hour)"
        );
        assert_eq!(
            progress_line(3, 50, 0, Duration::from_secs(3600)),
            "Progress: 3/50 games (6.0 %), 1h 00m 00s elapsed, 3.0 games/hour, ETA 15h 40m 00s"
        );
        // From 0.1 games/min (6 an hour) up, minutes as before; no games yet stays per minute.
        assert_eq!(played_line(6, Duration::from_secs(3600)), "Played 6 games in 1h 00m 00s (0.1 games/min)");
        assert_eq!(played_line(0, Duration::from_secs(60)), "Played 0 games in 1m 00s (0.0 games/min)");
        assert_eq!(played_line(0, Duration::ZERO), "Played 0 games in 0s (0.0 games/min)");
    }

    #[test]
    fn pairs_and_colours_are_counted_from_the_first_engine() {
        let names = vec!["A".to_string(), "B".to_string()];
        let mut s = Standings::new(names, &[(0, 1)]);
        s.add(&game(1, 0, 0, 1, GameResult::WhiteWins)); // A wins as White
        s.add(&game(2, 0, 1, 0, GameResult::WhiteWins)); // A loses as Black: pair WL
        s.add(&game(3, 1, 0, 1, GameResult::Draw));
        s.add(&game(5, 2, 0, 1, GameResult::BlackWins)); // pair 2 still open
        s.add(&game(4, 1, 1, 0, GameResult::BlackWins)); // A wins as Black: pair WD
        let p = &s.pairings()[0];
        assert_eq!(p.wdl, Wdl::new(2, 2, 1));
        assert_eq!(p.as_white, Wdl::new(1, 1, 1));
        assert_eq!(p.as_black, Wdl::new(1, 1, 0));
        assert_eq!(p.white_side, Wdl::new(2, 2, 1));
        assert_eq!(p.ptnml.counts(), [0, 0, 1, 1, 0]);
        assert_eq!(s.engine(1), Wdl::new(2, 2, 1));
        assert_eq!(s.games(), 5);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let block = s.block(Some(&sprt));
        assert!(block.starts_with("Score of A vs B: 2 - 2 - 1 [0.500] 5\n"), "{block}");
        assert!(block.contains("Elo difference: 0.0 +/- "), "{block}");
        assert!(block.contains("Ptnml(0-2): [0, 0, 1, 1, 0]"), "{block}");
        assert!(block.contains("(-2.94, 2.94) [0.00, 5.00]"), "{block}");
        assert_eq!(s.reasons_line(), "Terminations: surrounded 5");
    }

    #[test]
    fn ranking_with_three_engines() {
        let names = vec!["A".to_string(), "Bee".to_string(), "C".to_string()];
        let mut s = Standings::new(names, &[(0, 1), (0, 2), (1, 2)]);
        s.add(&game(1, 0, 0, 1, GameResult::BlackWins));
        s.add(&game(2, 2, 1, 2, GameResult::WhiteWins));
        let block = s.block(None);
        let ranking: Vec<&str> = block.lines().skip_while(|l| !l.starts_with("Rank")).collect();
        assert_eq!(ranking.len(), 4, "{block}");
        assert!(ranking[1].contains("Bee"), "{block}");
        assert!(!block.contains("Score of A vs C"), "pairings without games are left out");
    }

    /// Everything the runner prints, after the games `results` (White's result of each game
    /// between engines 0 and 1; every two games form a pair with colours swapped).
    fn printed(results: &[GameResult], engines: usize) -> String {
        let names: Vec<String> = ["A", "B", "C"][..engines].iter().map(|n| n.to_string()).collect();
        let pairings: Vec<(usize, usize)> = if engines == 2 { vec![(0, 1)] } else { vec![(0, 1), (0, 2), (1, 2)] };
        let mut s = Standings::new(names.clone(), &pairings);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let mut out = sprt_settings_line(&sprt) + "\n";
        for (i, &result) in results.iter().enumerate() {
            let (white, black) = if i % 2 == 0 { (0, 1) } else { (1, 0) };
            let record = game(i + 1, i / 2, white, black, result);
            s.add(&record);
            out += &format!("{}\n", finished_line(&record));
            out += &format!("{}\n", progress_line(s.games(), results.len(), 0, Duration::from_secs(i as u64)));
            out += &s.block(Some(&sprt));
        }
        let llr = sprt.llr_pentanomial(&s.pairings()[0].ptnml);
        for verdict in [Verdict::H0, Verdict::H1, Verdict::Continue] {
            out += &sprt_decision_line(verdict, s.games(), llr);
            out += &sprt_final_line(verdict);
        }
        // Pairings without games are not in the standings block, but their own block must be
        // printable too.
        for p in s.pairings() {
            out += &p.block(&names, Some(&sprt));
        }
        out += &s.block(Some(&sprt));
        out += &s.block(None);
        out += &s.reasons_line();
        out += &played_line(s.games(), Duration::ZERO);
        out += &progress_line(0, 0, 0, Duration::ZERO);
        out
    }

    #[test]
    fn tiny_results_print_numbers_or_na_never_nan_or_inf() {
        use GameResult::{BlackWins, Draw, WhiteWins};
        let cases: [(&str, &[GameResult]); 6] = [
            ("1-1-0", &[WhiteWins, WhiteWins]),
            ("1-0-0", &[WhiteWins]),
            ("0-1-0", &[BlackWins]),
            ("all draws", &[Draw, Draw, Draw, Draw]),
            ("0 games", &[]),
            ("a sweep", &[WhiteWins, BlackWins, WhiteWins, BlackWins]),
        ];
        for (name, results) in cases {
            for engines in [2, 3] {
                let text = printed(results, engines);
                let lower = text.to_ascii_lowercase();
                assert!(!lower.contains("nan") && !lower.contains("inf"), "{name}, {engines} engines:\n{text}");
            }
        }
        // 1 - 1 - 0: the score interval reaches past 0 and 1, so the margins are undefined.
        let text = printed(&[WhiteWins, WhiteWins], 2);
        assert!(text.contains("Elo difference: 0.0 +/- n/a, LOS: 50.0 %, DrawRatio: 0.0 %"), "{text}");
        assert!(text.contains("nElo: n/a +/- "), "{text}");
        assert!(text.contains("PairsRatio: n/a"), "{text}");
        assert!(text.contains("WL/DD Ratio: n/a"), "{text}");
        // A sweep: the Elo difference itself is infinite, in the pairing and in the ranking.
        let text = printed(&[WhiteWins, BlackWins], 3);
        assert!(text.contains("Elo difference: n/a +/- n/a"), "{text}");
        let lines: Vec<&str> = text.lines().collect();
        let last = lines.iter().rposition(|l| l.starts_with("Rank")).expect("a ranking");
        assert!(lines[last + 1].contains("    n/a     n/a      2 "), "{:?}", &lines[last..]);
    }

    #[test]
    fn numbers_are_fixed_or_na() {
        assert_eq!(number(1.26, 1), "1.3");
        assert_eq!(number(-3.0, 2), "-3.00");
        assert_eq!(number(f64::NAN, 1), "n/a");
        assert_eq!(number(f64::INFINITY, 1), "n/a");
        assert_eq!(number(f64::NEG_INFINITY, 2), "n/a");
    }
}
