//! `comb tune`: fits a game's evaluation weights to self-play positions by Texel's method.
//!
//! Each position's evaluation `e` (weights × features, opening and end-game weights blended by
//! the phase, from White's point of view) predicts White's score as `σ(k·e)`, with
//! `σ(x) = 1 / (1 + e^-x)`. The tuner first fits the scaling constant `k` to the weights in use
//! (so that the weights keep their units), then every weight, minimising the mean squared error
//! between the predictions and the targets with Adam over the whole data set, the gradient
//! summed over all cores. A target is the game's result, or with `lambda < 1` a blend of the
//! result and the search's own score `σ(k·score)`.
//!
//! Every tenth position (by default) is held out and its error reported beside the training
//! error, so that over-fitting shows.

use crate::eval::{Trace, Tunable, Weight, PHASE_MAX};
use crate::game::{Color, Game};
use crate::games::{AnyGame, GameOptions};
use crate::hive::Hive;
use crate::intellector::board::Position;
use rayon::prelude::*;
use std::fmt;
use std::io::Write;

/// Positions with their features and targets, stored flat for speed.
#[derive(Clone, Debug, Default)]
pub struct Data {
    /// Each position's phase as a fraction: 1 in the opening, 0 in the end game.
    phase: Vec<f64>,
    /// Each position's game result from White's point of view (1, 0.5, 0, or any fraction).
    result: Vec<f64>,
    /// Each position's search score from White's point of view (0 when unknown).
    score: Vec<f64>,
    /// Where each position's counts start in `features`/`counts` (one more entry than
    /// positions).
    start: Vec<usize>,
    features: Vec<u16>,
    counts: Vec<f64>,
    /// What the weighted sum is divided by (the game's [`Tunable::SCALE`]).
    scale: f64,
}

impl Data {
    /// An empty set.
    pub fn new() -> Data {
        Data::with_scale(1)
    }

    /// An empty set for a game whose evaluation divides the weighted sum by `scale`.
    pub fn with_scale(scale: i32) -> Data {
        Data { start: vec![0], scale: scale as f64, ..Data::default() }
    }

    /// Adds a position: its trace from White's point of view, White's result and the search
    /// score (White's view).
    pub fn push(&mut self, trace: &Trace, result: f64, score: f64) {
        self.phase.push(trace.phase as f64 / PHASE_MAX as f64);
        self.result.push(result);
        self.score.push(score);
        for &(f, n) in &trace.counts {
            self.features.push(f);
            self.counts.push(n as f64);
        }
        self.start.push(self.features.len());
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Splits off every `nth` position (the validation set), keeping the rest.
    pub fn split(&self, nth: usize) -> (Data, Data) {
        let scale = self.scale as i32;
        let (mut train, mut held) = (Data::with_scale(scale), Data::with_scale(scale));
        for i in 0..self.len() {
            let into = if nth > 0 && i % nth == nth - 1 { &mut held } else { &mut train };
            into.phase.push(self.phase[i]);
            into.result.push(self.result[i]);
            into.score.push(self.score[i]);
            for j in self.start[i]..self.start[i + 1] {
                into.features.push(self.features[j]);
                into.counts.push(self.counts[j]);
            }
            into.start.push(into.features.len());
        }
        (train, held)
    }

    /// The evaluation of position `i` under `weights` (White's view), unrounded.
    #[inline]
    fn eval(&self, i: usize, weights: &[[f64; 2]]) -> f64 {
        let phase = self.phase[i];
        let mut e = 0.0;
        for j in self.start[i]..self.start[i + 1] {
            let [opening, end] = weights[self.features[j] as usize];
            e += self.counts[j] * (opening * phase + end * (1.0 - phase));
        }
        e / self.scale
    }

    #[inline]
    fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        if lambda >= 1.0 {
            self.result[i]
        } else {
            lambda * self.result[i] + (1.0 - lambda) * sigmoid(k * self.score[i])
        }
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of the predictions `σ(k·e)` against the targets.
pub fn error(data: &Data, k: f64, lambda: f64, weights: &[[f64; 2]]) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = (0..data.len())
        .into_par_iter()
        .map(|i| {
            let d = data.target(i, k, lambda) - sigmoid(k * data.eval(i, weights));
            d * d
        })
        .sum();
    sum / data.len() as f64
}

/// The scaling constant that best fits the weights as they are to the game results: a
/// golden-section search (the error is unimodal in `k`).
pub fn fit_scale(data: &Data, weights: &[[f64; 2]]) -> f64 {
    best_scale(|k| error(data, k, 1.0, weights))
}

/// The `k` between 1e-5 and 1 with the least `error(k)`, by golden-section search on `ln k`
/// (an error of `σ(k·e)` against results is unimodal in `k`).
pub(crate) fn best_scale(error: impl Fn(f64) -> f64) -> f64 {
    let (mut low, mut high) = (1e-5f64.ln(), 1.0f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let at = |ln_k: f64| error(ln_k.exp());
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if at(a) < at(b) {
            high = b;
        } else {
            low = a;
        }
    }
    ((low + high) / 2.0).exp()
}

/// How the weights are fitted.
#[derive(Copy, Clone, Debug)]
pub struct Settings {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size, in weight units.
    pub learning_rate: f64,
    /// Share of the target taken from the game result (1: results only).
    pub lambda: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { epochs: 2000, learning_rate: 1.0, lambda: 1.0 }
    }
}

/// The gradient of the error with respect to every weight.
fn gradient(data: &Data, k: f64, lambda: f64, weights: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let n = weights.len();
    let chunk = data.len().div_ceil(rayon::current_num_threads().max(1) * 4).max(1);
    // Chunks of position numbers, not a list of them: an epoch allocates only the partial sums.
    let total = (0..data.len().div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            let mut g = vec![[0.0; 2]; n];
            for i in c * chunk..((c + 1) * chunk).min(data.len()) {
                let p = sigmoid(k * data.eval(i, weights));
                // d/de (t - p)² = -2 (t - p) p (1 - p) k
                let d = -2.0 * (data.target(i, k, lambda) - p) * p * (1.0 - p) * k / data.scale;
                let phase = data.phase[i];
                for j in data.start[i]..data.start[i + 1] {
                    let f = data.features[j] as usize;
                    let c = d * data.counts[j];
                    g[f][0] += c * phase;
                    g[f][1] += c * (1.0 - phase);
                }
            }
            g
        })
        .reduce(
            || vec![[0.0; 2]; n],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                a
            },
        );
    let scale = 1.0 / data.len().max(1) as f64;
    total.into_iter().map(|[a, b]| [a * scale, b * scale]).collect()
}

/// Fits the weights with Adam from `start`, the scale `k` fixed; `progress` hears of every
/// 100th epoch (epoch, weights so far).
pub fn fit_weights(
    data: &Data,
    k: f64,
    start: &[[f64; 2]],
    settings: &Settings,
    progress: &mut dyn FnMut(usize, &[[f64; 2]]),
) -> Vec<[f64; 2]> {
    let (beta1, beta2, epsilon): (f64, f64, f64) = (0.9, 0.999, 1e-12);
    let mut weights = start.to_vec();
    let mut m = vec![[0.0; 2]; weights.len()];
    let mut v = vec![[0.0; 2]; weights.len()];
    for epoch in 1..=settings.epochs {
        let g = gradient(data, k, settings.lambda, &weights);
        let (c1, c2) = (1.0 - beta1.powi(epoch as i32), 1.0 - beta2.powi(epoch as i32));
        for f in 0..weights.len() {
            for p in 0..2 {
                m[f][p] = beta1 * m[f][p] + (1.0 - beta1) * g[f][p];
                v[f][p] = beta2 * v[f][p] + (1.0 - beta2) * g[f][p] * g[f][p];
                weights[f][p] -= settings.learning_rate * (m[f][p] / c1) / ((v[f][p] / c2).sqrt() + epsilon);
            }
        }
        if epoch.is_multiple_of(100) || epoch == settings.epochs {
            progress(epoch, &weights);
        }
    }
    weights
}

/// Why a data file cannot be tuned on.
#[derive(Debug)]
pub enum TuneError {
    /// The file could not be read.
    Read(String, std::io::Error),
    /// A line is not `result<TAB>score<TAB>GameString`, or its GameString does not load.
    Line {
        /// The file.
        file: String,
        /// The line number (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The positions are of a game without a tunable evaluation, or of two games.
    Game(String),
    /// No positions at all.
    Empty,
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Read(file, e) => write!(f, "{file}: {e}"),
            TuneError::Line { file, line, reason } => write!(f, "{file}:{line}: {reason}"),
            TuneError::Game(reason) => f.write_str(reason),
            TuneError::Empty => f.write_str("the data holds no positions"),
        }
    }
}

impl std::error::Error for TuneError {}

/// The games with a tunable evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TunedGame {
    /// Hive, every game type sharing one set of weights.
    Hive,
    /// Intellector, both rule sets sharing one set of weights.
    Intellector,
}

impl TunedGame {
    fn of(game: &AnyGame) -> Result<TunedGame, TuneError> {
        match game {
            AnyGame::Hive(_) => Ok(TunedGame::Hive),
            AnyGame::Intellector(_) => Ok(TunedGame::Intellector),
        }
    }

    /// The game's name.
    pub fn name(self) -> &'static str {
        match self {
            TunedGame::Hive => "Hive",
            TunedGame::Intellector => "Intellector",
        }
    }

    /// The unit of the weights, for the weights file's header.
    fn units(self) -> &'static str {
        match self {
            TunedGame::Hive => "in hundredths of a piece",
            TunedGame::Intellector => "in hundredths of a centipawn (a Progressor is 10000)",
        }
    }

    /// What the weighted sum is divided by to give the evaluation.
    pub fn scale(self) -> i32 {
        match self {
            TunedGame::Hive => <Hive as Tunable>::SCALE,
            TunedGame::Intellector => <Position as Tunable>::SCALE,
        }
    }

    /// Feature names, in index order.
    pub fn features(self) -> &'static [&'static str] {
        match self {
            TunedGame::Hive => Hive::FEATURES,
            TunedGame::Intellector => Position::FEATURES,
        }
    }

    /// The weights in use.
    pub fn weights(self) -> &'static [Weight] {
        match self {
            TunedGame::Hive => Hive::weights(),
            TunedGame::Intellector => Position::weights(),
        }
    }

    /// The file the engine reads the weights from, relative to the crate root.
    pub fn weights_file(self) -> &'static str {
        match self {
            TunedGame::Hive => Hive::WEIGHTS_FILE,
            TunedGame::Intellector => Position::WEIGHTS_FILE,
        }
    }
}

/// The trace of a game's current position from White's point of view.
fn white_trace(game: &AnyGame) -> Trace {
    let (mut trace, side) = match game {
        AnyGame::Hive(g) => (g.hive().trace(), g.hive().side_to_move()),
        AnyGame::Intellector(g) => (g.position().trace(), g.position().side_to_move()),
    };
    if side == Color::Black {
        trace.negate();
    }
    trace
}

/// Reads self-play files (see [`crate::train::selfplay`]) into one data set, in parallel.
pub fn load(files: &[String], options: GameOptions) -> Result<(TunedGame, Data), TuneError> {
    let mut game = None;
    let mut data = None;
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| TuneError::Read(file.clone(), e))?;
        let lines: Vec<(usize, &str)> =
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')).collect();
        let parsed: Vec<Result<(TunedGame, Trace, f64, f64), TuneError>> = lines
            .par_iter()
            .map(|&(n, line)| parse_line(line, options).map_err(|reason| line_error(file, n, reason)))
            .collect();
        for p in parsed {
            let (g, trace, result, score) = p?;
            if *game.get_or_insert(g) != g {
                return Err(TuneError::Game(format!("{file}: positions of two games")));
            }
            data.get_or_insert_with(|| Data::with_scale(g.scale())).push(&trace, result, score);
        }
    }
    match (game, data) {
        (Some(g), Some(data)) => Ok((g, data)),
        _ => Err(TuneError::Empty),
    }
}

fn line_error(file: &str, index: usize, reason: String) -> TuneError {
    TuneError::Line { file: file.to_string(), line: index + 1, reason }
}

/// The fields of a self-play line `result<TAB>score<TAB>GameString`: White's result, White's
/// search score, and the game up to the position (what `comb tune` and `comb train-net` read).
pub(crate) fn parse_fields(line: &str, options: GameOptions) -> Result<(f64, f64, AnyGame), String> {
    let mut fields = line.splitn(3, '\t');
    let (Some(result), Some(score), Some(game_string)) = (fields.next(), fields.next(), fields.next()) else {
        return Err("expected result<TAB>score<TAB>GameString".into());
    };
    let result: f64 = result.trim().parse().map_err(|_| format!("bad result '{result}'"))?;
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("result {result} is not between 0 and 1"));
    }
    let score: f64 = score.trim().parse().map_err(|_| format!("bad score '{score}'"))?;
    let game = options.parse(game_string.trim()).map_err(|e| e.to_string())?;
    Ok((result, score, game))
}

fn parse_line(line: &str, options: GameOptions) -> Result<(TunedGame, Trace, f64, f64), String> {
    let (result, score, game) = parse_fields(line, options)?;
    let tuned = TunedGame::of(&game).map_err(|e| e.to_string())?;
    let trace = white_trace(&game);
    Ok((tuned, trace, result, score))
}

/// Writes `weights` as the Rust source of the game's weights file (what the engine compiles
/// in), `provenance` going into its header.
pub fn write_weights(
    out: &mut dyn Write,
    game: TunedGame,
    weights: &[[f64; 2]],
    provenance: &str,
) -> std::io::Result<()> {
    let names = game.features();
    writeln!(out, "//! The {} evaluation's weights, one `[opening, end game]` pair per feature of", game.name())?;
    writeln!(out, "//! [`FEATURES`](super::eval::FEATURES), {}.", game.units())?;
    writeln!(out, "//!")?;
    writeln!(out, "//! Written by `comb tune`; edit by hand only to try a change, then tune again.")?;
    for line in provenance.lines() {
        writeln!(out, "//! {line}")?;
    }
    writeln!(out)?;
    writeln!(out, "use crate::eval::Weight;")?;
    writeln!(out)?;
    writeln!(out, "/// The weights in use.")?;
    writeln!(out, "pub const WEIGHTS: [Weight; {}] = [", weights.len())?;
    // Laid out as rustfmt lays it out (the comments aligned), so that the file passes
    // `cargo fmt --check` as written.
    let entries: Vec<String> =
        weights.iter().map(|w| format!("[{}, {}],", w[0].round() as i32, w[1].round() as i32)).collect();
    let width = entries.iter().map(String::len).max().unwrap_or(0);
    for (entry, name) in entries.iter().zip(names) {
        writeln!(out, "    {entry:<width$} // {name}")?;
    }
    writeln!(out, "];")
}

/// The weights in use as real numbers (the tuner's starting point).
pub fn current(game: TunedGame) -> Vec<[f64; 2]> {
    game.weights().iter().map(|&[a, b]| [a as f64, b as f64]).collect()
}
