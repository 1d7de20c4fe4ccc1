//! What the runner prints: one line per finished game, a progress line, standings every few
//! games and a final block, in cutechess-cli's and fastchess's wording so that tools and eyes
//! used to those read it at once.

use super::stats::{Pentanomial, Sprt, Wdl};
use super::GameRecord;
use crate::game::Color;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

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

/// `Progress: 17/40 games (42.5 %), 1m 12s elapsed, 14.2 games/min, ETA 1m 37s`.
pub fn progress_line(done: usize, total: usize, elapsed: Duration) -> String {
    let minutes = elapsed.as_secs_f64() / 60.0;
    let rate = if minutes > 0.0 { done as f64 / minutes } else { 0.0 };
    let eta = if rate > 0.0 {
        duration_text(Duration::from_secs_f64((total - done.min(total)) as f64 / rate * 60.0))
    } else {
        "?".to_string()
    };
    format!(
        "Progress: {done}/{total} games ({:.1} %), {} elapsed, {rate:.1} games/min, ETA {eta}",
        100.0 * done as f64 / total.max(1) as f64,
        duration_text(elapsed)
    )
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
            "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
            w.elo(),
            w.elo_margin(),
            100.0 * w.los(),
            100.0 * w.draw_ratio()
        ));
        let p = &self.ptnml;
        if p.pairs() > 0 {
            out.push_str(&format!(
                "Pairs: Elo {:.1} +/- {:.1}, nElo: {:.1} +/- {:.1}, PairsRatio: {:.2}\n",
                p.elo(),
                p.elo_margin(),
                p.nelo(),
                p.nelo_margin(),
                p.pairs_ratio()
            ));
            let c = p.counts();
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {:.2}\n",
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                p.wl as f64 / p.dd as f64
            ));
        }
        if let Some(sprt) = sprt {
            let llr = sprt.llr_pentanomial(p);
            out.push_str(&format!(
                "LLR: {llr:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]\n",
                sprt.progress(llr),
                sprt.lower(),
                sprt.upper(),
                sprt.elo0,
                sprt.elo1
            ));
        }
        out
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
                    "{:>4} {:<width$} {:>7.1} {:>7.1} {:>6} {:>6.1}% {:>6.1}%\n",
                    rank + 1,
                    self.names[i],
                    w.elo(),
                    w.elo_margin(),
                    w.games(),
                    100.0 * w.score(),
                    100.0 * w.draw_ratio()
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
    use super::super::pgn::tests::sample;
    use super::super::referee::{GameResult, Termination};
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
            progress_line(10, 40, Duration::from_secs(120)),
            "Progress: 10/40 games (25.0 %), 2m 00s elapsed, 5.0 games/min, ETA 6m 00s"
        );
        assert_eq!(duration_text(Duration::from_secs(3723)), "1h 02m 03s");
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
}
