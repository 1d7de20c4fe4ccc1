//! `comb train-net`: trains the Hive network ([`crate::hive::net`]) on self-play positions.
//!
//! The data are `comb selfplay` files, as for `comb tune`. Each position becomes the active
//! features of both perspectives (the side to move's first), the hand-written evaluation and
//! the targets, all from the side to move's point of view. The network predicts the side to
//! move's score as `σ(y)`, `y` its output logit (plus `k·e` of the hand-written evaluation `e`
//! for a residual network, so that training starts exactly where the tuned evaluation stands),
//! and is fitted by Adam on mini-batches to the mean squared error against the targets: the
//! game's result, or with `lambda < 1` a blend with `σ(k·score)` of the search's score. The
//! scale `k` is fitted first to the hand-written evaluation, as `comb tune` does, so that the
//! network's output comes out in the same units.
//!
//! Positions of one game are alike, so the held-out set is every Nth *game* (a game's lines
//! are consecutive in a self-play file, each extending the one before), never positions
//! whose neighbours were trained on.

use super::tune::TuneError;
use crate::game::{Color, Game};
use crate::games::{AnyGame, GameOptions};
use crate::hive::net::{self, Network, COARSE, HIDDEN, INPUTS, QA, QB};
use crate::hive::Hive;
use crate::zobrist::SplitMix64;
use rayon::prelude::*;

/// Positions as the trainer reads them, stored flat.
#[derive(Clone, Debug, Default)]
pub struct NetData {
    /// The features of every position's two perspectives, side to move first.
    features: Vec<u16>,
    /// Where each position's features start in `features`; its side to move's end at
    /// `split`, its opponent's at the next start.
    start: Vec<u32>,
    split: Vec<u32>,
    /// The hand-written evaluation, side to move's view, in its units.
    classic: Vec<f32>,
    /// The game's result, side to move's view (1 a win).
    result: Vec<f32>,
    /// The search's score, side to move's view, in evaluation units.
    score: Vec<f32>,
    /// Which game of its file each position comes from (games numbered across files).
    game: Vec<u32>,
}

impl NetData {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.classic.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.classic.is_empty()
    }

    /// Games held.
    pub fn games(&self) -> usize {
        self.game.last().map_or(0, |&g| g as usize + 1)
    }

    fn push(&mut self, position: Position, game: u32) {
        self.start.push(self.features.len() as u32);
        self.features.extend_from_slice(&position.us);
        self.split.push(self.features.len() as u32);
        self.features.extend_from_slice(&position.them);
        self.classic.push(position.classic);
        self.result.push(position.result);
        self.score.push(position.score);
        self.game.push(game);
    }

    fn us(&self, i: usize) -> &[u16] {
        &self.features[self.start[i] as usize..self.split[i] as usize]
    }

    fn them(&self, i: usize) -> &[u16] {
        let end = self.start.get(i + 1).map_or(self.features.len(), |&e| e as usize);
        &self.features[self.split[i] as usize..end]
    }

    /// Splits off every `nth` game (the validation set), keeping the rest; 0 holds none out.
    pub fn split(&self, nth: usize) -> (NetData, NetData) {
        let (mut train, mut held) = (NetData::default(), NetData::default());
        for i in 0..self.len() {
            let into = if nth > 0 && self.game[i] as usize % nth == nth - 1 { &mut held } else { &mut train };
            let position = Position {
                us: self.us(i).to_vec(),
                them: self.them(i).to_vec(),
                classic: self.classic[i],
                result: self.result[i],
                score: self.score[i],
            };
            into.push(position, self.game[i]);
        }
        (train, held)
    }

    fn target(&self, i: usize, k: f32, lambda: f32) -> f32 {
        lambda * self.result[i] + (1.0 - lambda) * sigmoid(k * self.score[i])
    }
}

/// One position read from a line.
struct Position {
    us: Vec<u16>,
    them: Vec<u16>,
    classic: f32,
    result: f32,
    score: f32,
}

/// A perspective's features followed by the coarse features they share in (numbered from
/// [`INPUTS`], trainer-only rows).
fn with_coarse(mut features: Vec<u16>) -> Vec<u16> {
    let coarse: Vec<u16> =
        features.iter().filter_map(|&f| net::coarse_feature(f as usize)).map(|c| (INPUTS + c) as u16).collect();
    features.extend(coarse);
    features
}

/// Rows of the trainer's first layer: the engine's inputs, then the coarse features.
const ROWS: usize = INPUTS + COARSE;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads Hive self-play files into one data set, in parallel.
pub fn load(files: &[String], options: GameOptions) -> Result<NetData, TuneError> {
    let mut data = NetData::default();
    let mut game = 0u32;
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| TuneError::Read(file.clone(), e))?;
        let lines: Vec<(usize, &str)> =
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')).collect();
        let parsed: Vec<Result<Position, TuneError>> = lines
            .par_iter()
            .map(|&(n, line)| {
                parse_line(line, options).map_err(|reason| TuneError::Line { file: file.clone(), line: n + 1, reason })
            })
            .collect();
        let mut previous: Option<&str> = None;
        for (p, &(_, line)) in parsed.into_iter().zip(&lines) {
            let position = p?;
            // A line whose moves do not extend the line before starts another game.
            let moves = line.splitn(3, '\t').nth(2).unwrap_or("").splitn(4, ';').nth(3).unwrap_or("");
            if previous.is_some_and(|before| !moves.starts_with(before)) {
                game += 1;
            }
            previous = Some(moves);
            data.push(position, game);
        }
        game += 1;
    }
    if data.is_empty() {
        return Err(TuneError::Empty);
    }
    // Number the games from 0 without gaps.
    let mut next = 0;
    let mut last = None;
    for g in &mut data.game {
        if last != Some(*g) {
            last = Some(*g);
            next += 1;
        }
        *g = next - 1;
    }
    Ok(data)
}

fn parse_line(line: &str, options: GameOptions) -> Result<Position, String> {
    let (result, score, game) = super::tune::parse_fields(line, options)?;
    let (result, score) = (result as f32, score as f32);
    let AnyGame::Hive(game) = game else {
        return Err("the network is Hive's: this is an Intellector game".into());
    };
    let hive: &Hive = game.hive();
    let me = hive.side_to_move();
    let white = me == Color::White;
    Ok(Position {
        us: with_coarse(net::perspective_features(hive, me)),
        them: with_coarse(net::perspective_features(hive, me.opponent())),
        classic: crate::hive::eval::evaluate(hive) as f32,
        result: if white { result } else { 1.0 - result },
        score: if white { score } else { -score },
    })
}

/// The mean squared error of `σ(k·e)` of the hand-written evaluation against the targets.
pub fn classic_error(data: &NetData, k: f32, lambda: f32) -> f64 {
    mean(data, |i| {
        let d = data.target(i, k, lambda) - sigmoid(k * data.classic[i]);
        (d * d) as f64
    })
}

fn mean(data: &NetData, f: impl Fn(usize) -> f64 + Sync + Send) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    (0..data.len()).into_par_iter().map(f).sum::<f64>() / data.len() as f64
}

/// The scale `k` that best fits the hand-written evaluation to the results (golden section).
pub fn fit_scale(data: &NetData) -> f32 {
    super::tune::best_scale(|k| classic_error(data, k as f32, 1.0)) as f32
}

/// How the network is trained.
#[derive(Copy, Clone, Debug)]
pub struct NetSettings {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Share of the target taken from the game's result.
    pub lambda: f32,
    /// Positions per step.
    pub batch: usize,
    /// Whether the network adds to the hand-written evaluation.
    pub residual: bool,
    /// Seed of the initial weights and of the order of positions.
    pub seed: u64,
    /// Decoupled weight decay of the first layer (AdamW): each step shrinks every first-layer
    /// weight by `learning_rate · weight_decay` of itself, so a weight only the rare positions
    /// of a few games pull on fades back towards 0 instead of memorising them.
    pub weight_decay: f32,
}

/// The network in floating point, as it is trained.
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// `ROWS × HIDDEN` first-layer weights, row by row: the engine's inputs, then the coarse
    /// features.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `2 × HIDDEN` output weights: the side to move's, then the opponent's.
    w2: Vec<f32>,
    b2: f32,
}

/// Largest first-layer weight or bias: 56 of them and a bias stay within `i16` at [`QA`].
const W1_LIMIT: f32 = 1.98;
/// Largest output weight, within `i16` at [`QB`].
const W2_LIMIT: f32 = 120.0;

impl FloatNet {
    /// Small random first-layer weights; output weights zero for a residual network (so it
    /// starts as the hand-written evaluation), small random otherwise.
    pub fn new(settings: &NetSettings) -> FloatNet {
        let mut rng = SplitMix64::new(settings.seed);
        let mut uniform = |scale: f64| ((rng.unit() * 2.0 - 1.0) * scale) as f32;
        let w1 = (0..ROWS * HIDDEN).map(|_| uniform(0.1)).collect();
        let b1 = (0..HIDDEN).map(|_| 0.5 + uniform(0.1)).collect();
        let w2 = (0..2 * HIDDEN).map(|_| if settings.residual { 0.0 } else { uniform(0.3) }).collect();
        FloatNet { w1, b1, w2, b2: 0.0 }
    }

    fn parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + 1
    }

    fn accumulate(&self, features: &[u16]) -> [f32; HIDDEN] {
        let mut acc = [0.0; HIDDEN];
        acc.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[f as usize * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The output logit of position `i`, the residual part included, and both accumulators.
    fn forward(&self, data: &NetData, i: usize, k: f32, residual: bool) -> (f32, [[f32; HIDDEN]; 2]) {
        let acc = [self.accumulate(data.us(i)), self.accumulate(data.them(i))];
        let mut y = self.b2 + if residual { k * data.classic[i] } else { 0.0 };
        for (side, a) in acc.iter().enumerate() {
            for (j, &v) in a.iter().enumerate() {
                y += self.w2[side * HIDDEN + j] * v.clamp(0.0, 1.0);
            }
        }
        (y, acc)
    }

    /// The mean squared error on `data`.
    pub fn error(&self, data: &NetData, k: f32, lambda: f32, residual: bool) -> f64 {
        mean(data, |i| {
            let (y, _) = self.forward(data, i, k, residual);
            let d = data.target(i, k, lambda) - sigmoid(y);
            (d * d) as f64
        })
    }

    /// The summed gradient of the squared error over `positions`, added into `grad` (laid out
    /// as the parameters: w1, b1, w2, b2).
    fn add_gradient(&self, data: &NetData, positions: &[u32], k: f32, settings: &NetSettings, grad: &mut [f32]) {
        let (g_w1, rest) = grad.split_at_mut(ROWS * HIDDEN);
        let (g_b1, rest) = rest.split_at_mut(HIDDEN);
        let (g_w2, g_b2) = rest.split_at_mut(2 * HIDDEN);
        for &i in positions {
            let i = i as usize;
            let (y, acc) = self.forward(data, i, k, settings.residual);
            let p = sigmoid(y);
            let d = 2.0 * (p - data.target(i, k, settings.lambda)) * p * (1.0 - p);
            g_b2[0] += d;
            for (side, features) in [data.us(i), data.them(i)].into_iter().enumerate() {
                let mut d_acc = [0.0f32; HIDDEN];
                for j in 0..HIDDEN {
                    let a = acc[side][j];
                    g_w2[side * HIDDEN + j] += d * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        d_acc[j] = d * self.w2[side * HIDDEN + j];
                    }
                }
                for j in 0..HIDDEN {
                    g_b1[j] += d_acc[j];
                }
                for &f in features {
                    let row = &mut g_w1[f as usize * HIDDEN..][..HIDDEN];
                    for (g, da) in row.iter_mut().zip(&d_acc) {
                        *g += da;
                    }
                }
            }
        }
    }

    /// The network as the engine runs it: integer weights, output in evaluation units.
    pub fn quantize(&self, k: f32, residual: bool) -> Network {
        let q = |w: f32, scale: i32| (w * scale as f32).round() as i16;
        let mut network = Network::zero((1.0 / k).round() as i32, residual);
        for (f, row) in network.w1.iter_mut().enumerate() {
            // A coarse feature's weights are shared by every fine feature in it: fold them in.
            let coarse = net::coarse_feature(f).map(|c| INPUTS + c);
            for (j, w) in row.iter_mut().enumerate() {
                let shared = coarse.map_or(0.0, |c| self.w1[c * HIDDEN + j]);
                *w = q((self.w1[f * HIDDEN + j] + shared).clamp(-W1_LIMIT, W1_LIMIT), QA);
            }
        }
        for j in 0..HIDDEN {
            network.b1[j] = q(self.b1[j], QA);
            network.w2[0][j] = q(self.w2[j], QB);
            network.w2[1][j] = q(self.w2[HIDDEN + j], QB);
        }
        network.b2 = (self.b2 * (QA * QB) as f32).round() as i32;
        network
    }
}

/// Trains a network from `start` on `train` with Adam; `progress` hears after every epoch
/// (epoch, network so far).
pub fn train(
    train: &NetData,
    k: f32,
    start: FloatNet,
    settings: &NetSettings,
    progress: &mut dyn FnMut(usize, &FloatNet),
) -> FloatNet {
    let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
    let mut net = start;
    let n = net.parameters();
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = SplitMix64::new(settings.seed ^ 0x5eed);
    let mut step = 0;
    let threads = rayon::current_num_threads().max(1);
    for epoch in 1..=settings.epochs {
        shuffle(&mut order, &mut rng);
        for batch in order.chunks(settings.batch.max(1)) {
            step += 1;
            let chunk = batch.len().div_ceil(threads);
            let grad = batch
                .par_chunks(chunk.max(1))
                .map(|part| {
                    let mut g = vec![0.0f32; n];
                    net.add_gradient(train, part, k, settings, &mut g);
                    g
                })
                .reduce(
                    || vec![0.0f32; n],
                    |mut a, b| {
                        a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                        a
                    },
                );
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let mut at = 0;
            let mut update = |w: &mut f32, limit: f32| {
                let g = grad[at] * scale;
                m[at] = beta1 * m[at] + (1.0 - beta1) * g;
                v[at] = beta2 * v[at] + (1.0 - beta2) * g * g;
                *w -= settings.learning_rate * (m[at] / c1) / ((v[at] / c2).sqrt() + epsilon);
                *w = w.clamp(-limit, limit);
                at += 1;
            };
            let decay = 1.0 - settings.learning_rate * settings.weight_decay;
            net.w1.iter_mut().for_each(|w| {
                *w *= decay;
                update(w, W1_LIMIT)
            });
            net.b1.iter_mut().for_each(|w| update(w, W1_LIMIT));
            net.w2.iter_mut().for_each(|w| update(w, W2_LIMIT));
            update(&mut net.b2, W2_LIMIT);
        }
        progress(epoch, &net);
    }
    net
}

fn shuffle(order: &mut [u32], rng: &mut SplitMix64) {
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> NetData {
        load(&["positions/selfplay-sample.txt".to_string()], GameOptions::default()).expect("the sample loads")
    }

    #[test]
    fn the_sample_loads_by_game() {
        let data = sample();
        assert_eq!(data.len(), 300);
        // Each game's positions extend each other; the sample holds several games.
        assert!(data.games() > 3, "{} games", data.games());
        let (train, held) = data.split(4);
        assert_eq!(train.len() + held.len(), 300);
        assert!(!held.is_empty());
        // No game on both sides of the split.
        for g in &held.game {
            assert!(!train.game.contains(g));
        }
    }

    #[test]
    fn a_residual_network_starts_as_the_hand_written_evaluation_and_learns() {
        let data = sample();
        let k = fit_scale(&data);
        let settings = NetSettings {
            epochs: 30,
            learning_rate: 0.01,
            lambda: 1.0,
            batch: 64,
            residual: true,
            seed: 1,
            weight_decay: 0.0,
        };
        let start = FloatNet::new(&settings);
        let before = start.error(&data, k, 1.0, true);
        assert!((before - classic_error(&data, k, 1.0)).abs() < 1e-6, "{before}");
        let trained = train(&data, k, start, &settings, &mut |_, _| {});
        let after = trained.error(&data, k, 1.0, true);
        assert!(after < before, "training error {before} -> {after}");
    }

    #[test]
    fn weight_decay_keeps_the_first_layer_small() {
        let data = sample();
        let k = fit_scale(&data);
        let size = |weight_decay: f32| {
            let settings = NetSettings {
                epochs: 10,
                learning_rate: 0.01,
                lambda: 0.0,
                batch: 64,
                residual: true,
                seed: 3,
                weight_decay,
            };
            let trained = train(&data, k, FloatNet::new(&settings), &settings, &mut |_, _| {});
            trained.w1.iter().map(|w| w.abs() as f64).sum::<f64>()
        };
        let (free, decayed) = (size(0.0), size(20.0));
        // Each of the 50 steps shrinks by 1 - 0.01 * 20 = 0.8 before Adam's step: the initial
        // weights are all but gone, and what is learned stays small.
        assert!(decayed < free / 4.0, "sum of |w1|: {free} without decay, {decayed} with");
    }

    #[test]
    fn the_quantized_network_scores_as_the_float_one() {
        let data = sample();
        let k = fit_scale(&data);
        let settings = NetSettings {
            epochs: 5,
            learning_rate: 0.01,
            lambda: 1.0,
            batch: 32,
            residual: false,
            seed: 2,
            weight_decay: 0.0,
        };
        let float = train(&data, k, FloatNet::new(&settings), &settings, &mut |_, _| {});
        let network = float.quantize(k, false);
        let lines = std::fs::read_to_string("positions/selfplay-sample.txt").unwrap();
        for line in lines.lines().take(40) {
            let AnyGame::Hive(game) = GameOptions::default().parse(line.splitn(3, '\t').nth(2).unwrap()).unwrap()
            else {
                unreachable!()
            };
            let hive = game.hive();
            let me = hive.side_to_move();
            let us = with_coarse(net::perspective_features(hive, me));
            let them = with_coarse(net::perspective_features(hive, me.opponent()));
            let mut one = NetData::default();
            one.push(Position { us, them, classic: 0.0, result: 0.5, score: 0.0 }, 0);
            let (y, _) = float.forward(&one, 0, k, false);
            let float_eval = y / k;
            let int_eval = network.evaluate(hive) as f32;
            // Within the rounding of up to 56 first-layer rows at 1/128 and the output's floor
            // (a few evaluation units: 3.7 seen with offsets within three steps).
            assert!((float_eval - int_eval).abs() < 5.0 + 0.02 * float_eval.abs(), "{float_eval} vs {int_eval}");
        }
    }
}
