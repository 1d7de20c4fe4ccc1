//! `comb train-net`: trains a game's network (Hive's [`crate::hive::net`], Intellector's
//! [`crate::intellector::net`]) on self-play positions.
//!
//! The data are `comb selfplay` files, as for `comb tune`, all of one game, which the first
//! position tells; the game's [`Shape`] (its features, coarse features, the engine's
//! accumulator size and file) is all the trainer knows of it. Each position becomes the active
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
use crate::game::Color;
use crate::games::{AnyGame, GameOptions};
use crate::hive::Hive;
use crate::nnue::{perspective_features, Learned, Network, QA, QB};
use crate::zobrist::SplitMix64;
use rayon::prelude::*;

/// The largest accumulator the trainer trains (`--hidden`).
pub const MAX_HIDDEN: usize = 256;

/// What the trainer knows of a game's network.
#[derive(Copy, Clone, Debug)]
pub struct Shape {
    /// The game's name.
    pub name: &'static str,
    /// Input features of the engine's network.
    pub inputs: usize,
    /// Coarse features, trainer-only ([`Learned::COARSE`]).
    pub coarse: usize,
    /// The engine's accumulator size: the only one a network can be written with.
    pub hidden: usize,
    /// Where the engine reads the network, relative to the crate root.
    pub net_file: &'static str,
    coarse_feature: fn(usize) -> Option<usize>,
    /// The quantized file of a network of `hidden` values.
    write: fn(&FloatNet, f32, bool) -> Vec<u8>,
}

impl Shape {
    /// The shape of game `P`'s network, whose engine accumulates `H` values.
    fn of<const H: usize, P: Learned>() -> Shape {
        Shape {
            name: P::NAME,
            inputs: P::INPUTS,
            coarse: P::COARSE,
            hidden: H,
            net_file: P::NET_FILE,
            coarse_feature: P::coarse_feature,
            write: |net, k, residual| net.quantize::<H>(k, residual).to_bytes(),
        }
    }

    /// The shape of a game's network.
    pub fn of_game(game: &AnyGame) -> Shape {
        match game {
            AnyGame::Hive(_) => Shape::of::<{ crate::hive::net::HIDDEN }, Hive>(),
            AnyGame::Intellector(_) => Shape::of::<{ crate::intellector::net::HIDDEN }, crate::intellector::Position>(),
        }
    }

    /// Rows of the trainer's first layer: the engine's inputs, then the coarse features.
    fn rows(&self) -> usize {
        self.inputs + self.coarse
    }

    /// A perspective's features followed by the coarse features they share in (numbered from
    /// the inputs on, trainer-only rows).
    fn with_coarse(&self, mut features: Vec<u16>) -> Vec<u16> {
        let coarse: Vec<u16> = features
            .iter()
            .filter_map(|&f| (self.coarse_feature)(f as usize))
            .map(|c| (self.inputs + c) as u16)
            .collect();
        features.extend(coarse);
        features
    }
}

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

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads self-play files of one game into one data set, in parallel, with the game's shape.
pub fn load(files: &[String], options: GameOptions) -> Result<(Shape, NetData), TuneError> {
    let mut data = NetData::default();
    let mut shape: Option<Shape> = None;
    let mut game = 0u32;
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| TuneError::Read(file.clone(), e))?;
        let lines: Vec<(usize, &str)> =
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#')).collect();
        let parsed: Vec<Result<(Shape, Position), TuneError>> = lines
            .par_iter()
            .map(|&(n, line)| {
                parse_line(line, options).map_err(|reason| TuneError::Line { file: file.clone(), line: n + 1, reason })
            })
            .collect();
        let mut previous: Option<&str> = None;
        for (p, &(_, line)) in parsed.into_iter().zip(&lines) {
            let (game_shape, position) = p?;
            if shape.get_or_insert(game_shape).name != game_shape.name {
                return Err(TuneError::Game(format!("{file}: positions of two games")));
            }
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
    let Some(shape) = shape else { return Err(TuneError::Empty) };
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
    Ok((shape, data))
}

fn parse_line(line: &str, options: GameOptions) -> Result<(Shape, Position), String> {
    let (result, score, game) = super::tune::parse_fields(line, options)?;
    let shape = Shape::of_game(&game);
    let position = match &game {
        AnyGame::Hive(g) => Position::of(g.hive(), &shape, result as f32, score as f32),
        AnyGame::Intellector(g) => Position::of(g.position(), &shape, result as f32, score as f32),
    };
    Ok((shape, position))
}

impl Position {
    /// What the trainer keeps of `game`'s current position, given White's result and score.
    fn of<P: Learned>(game: &P, shape: &Shape, result: f32, score: f32) -> Position {
        let me = game.side_to_move();
        let white = me == Color::White;
        Position {
            us: shape.with_coarse(perspective_features(game, me)),
            them: shape.with_coarse(perspective_features(game, me.opponent())),
            classic: game.classic() as f32,
            result: if white { result } else { 1.0 - result },
            score: if white { score } else { -score },
        }
    }
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
    /// The game's network shape.
    shape: Shape,
    /// Values in each accumulator.
    hidden: usize,
    /// `rows × hidden` first-layer weights, row by row: the engine's inputs, then the coarse
    /// features.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `2 × hidden` output weights: the side to move's, then the opponent's.
    w2: Vec<f32>,
    b2: f32,
}

/// Largest first-layer weight or bias: 56 of them and a bias stay within `i16` at [`QA`].
const W1_LIMIT: f32 = 1.98;
/// Largest output weight, within `i16` at [`QB`].
const W2_LIMIT: f32 = 120.0;

/// One perspective's accumulator in the trainer (its first `hidden` values used).
type FloatAcc = [f32; MAX_HIDDEN];

impl FloatNet {
    /// A network of `shape` with `hidden` values per accumulator (at most [`MAX_HIDDEN`]):
    /// small random first-layer weights; output weights zero for a residual network (so it
    /// starts as the hand-written evaluation), small random otherwise.
    pub fn new(shape: Shape, hidden: usize, settings: &NetSettings) -> FloatNet {
        assert!((1..=MAX_HIDDEN).contains(&hidden), "1 to {MAX_HIDDEN} hidden values");
        let mut rng = SplitMix64::new(settings.seed);
        let mut uniform = |scale: f64| ((rng.unit() * 2.0 - 1.0) * scale) as f32;
        let w1 = (0..shape.rows() * hidden).map(|_| uniform(0.1)).collect();
        let b1 = (0..hidden).map(|_| 0.5 + uniform(0.1)).collect();
        let w2 = (0..2 * hidden).map(|_| if settings.residual { 0.0 } else { uniform(0.3) }).collect();
        FloatNet { shape, hidden, w1, b1, w2, b2: 0.0 }
    }

    fn parameters(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + 1
    }

    fn accumulate(&self, features: &[u16]) -> FloatAcc {
        let h = self.hidden;
        let mut acc = [0.0; MAX_HIDDEN];
        acc[..h].copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[f as usize * h..][..h];
            for (a, w) in acc[..h].iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The output logit of position `i`, the residual part included, and both accumulators.
    fn forward(&self, data: &NetData, i: usize, k: f32, residual: bool) -> (f32, [FloatAcc; 2]) {
        let h = self.hidden;
        let acc = [self.accumulate(data.us(i)), self.accumulate(data.them(i))];
        let mut y = self.b2 + if residual { k * data.classic[i] } else { 0.0 };
        for (a, w) in acc.iter().zip(self.w2.chunks_exact(h)) {
            for (&v, &w) in a[..h].iter().zip(w) {
                y += w * v.clamp(0.0, 1.0);
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
        let h = self.hidden;
        let (g_w1, rest) = grad.split_at_mut(self.w1.len());
        let (g_b1, rest) = rest.split_at_mut(h);
        let (g_w2, g_b2) = rest.split_at_mut(2 * h);
        for &i in positions {
            let i = i as usize;
            let (y, acc) = self.forward(data, i, k, settings.residual);
            let p = sigmoid(y);
            let d = 2.0 * (p - data.target(i, k, settings.lambda)) * p * (1.0 - p);
            g_b2[0] += d;
            for (side, features) in [data.us(i), data.them(i)].into_iter().enumerate() {
                let mut d_acc = [0.0f32; MAX_HIDDEN];
                for j in 0..h {
                    let a = acc[side][j];
                    g_w2[side * h + j] += d * a.clamp(0.0, 1.0);
                    if a > 0.0 && a < 1.0 {
                        d_acc[j] = d * self.w2[side * h + j];
                    }
                }
                for (g, da) in g_b1.iter_mut().zip(&d_acc[..h]) {
                    *g += da;
                }
                for &f in features {
                    let row = &mut g_w1[f as usize * h..][..h];
                    for (g, da) in row.iter_mut().zip(&d_acc[..h]) {
                        *g += da;
                    }
                }
            }
        }
    }

    /// The network as the engine runs it: integer weights, output in evaluation units. `H`
    /// must be this network's accumulator size.
    pub fn quantize<const H: usize>(&self, k: f32, residual: bool) -> Network<H> {
        assert_eq!(self.hidden, H, "a network is quantized at its own size");
        let q = |w: f32, scale: i32| (w * scale as f32).round() as i16;
        let shape = &self.shape;
        let mut network = Network::zero(shape.inputs, (1.0 / k).round() as i32, residual);
        for (f, row) in network.w1.iter_mut().enumerate() {
            // A coarse feature's weights are shared by every fine feature in it: fold them in.
            let coarse = (shape.coarse_feature)(f).map(|c| shape.inputs + c);
            for (j, w) in row.iter_mut().enumerate() {
                let shared = coarse.map_or(0.0, |c| self.w1[c * H + j]);
                *w = q((self.w1[f * H + j] + shared).clamp(-W1_LIMIT, W1_LIMIT), QA);
            }
        }
        for j in 0..H {
            network.b1[j] = q(self.b1[j], QA);
            network.w2[0][j] = q(self.w2[j], QB);
            network.w2[1][j] = q(self.w2[H + j], QB);
        }
        network.b2 = (self.b2 * (QA * QB) as f32).round() as i32;
        network
    }

    /// The bytes of the network's file, as the engine reads it; `None` unless the network has
    /// the engine's accumulator size.
    pub fn to_file(&self, k: f32, residual: bool) -> Option<Vec<u8>> {
        (self.hidden == self.shape.hidden).then(|| (self.shape.write)(self, k, residual))
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

    const HIVE_SAMPLE: &str = "positions/selfplay-sample.txt";
    const INTELLECTOR_SAMPLE: &str = "positions/selfplay-intellector-sample.txt";

    fn sample(file: &str) -> (Shape, NetData) {
        load(&[file.to_string()], GameOptions::default()).expect("the sample loads")
    }

    fn settings(epochs: usize, lambda: f32, batch: usize, residual: bool, seed: u64, weight_decay: f32) -> NetSettings {
        NetSettings { epochs, learning_rate: 0.01, lambda, batch, residual, seed, weight_decay }
    }

    #[test]
    fn the_samples_load_by_game() {
        for (file, name, positions, inputs) in
            [(HIVE_SAMPLE, "Hive", 300, 3772), (INTELLECTOR_SAMPLE, "Intellector", 300, 708)]
        {
            let (shape, data) = sample(file);
            assert_eq!((shape.name, data.len(), shape.inputs, shape.hidden), (name, positions, inputs, 32));
            // Each game's positions extend each other; the sample holds several games.
            assert!(data.games() > 3, "{file}: {} games", data.games());
            let (train, held) = data.split(4);
            assert_eq!(train.len() + held.len(), positions);
            assert!(!held.is_empty());
            // No game on both sides of the split.
            for g in &held.game {
                assert!(!train.game.contains(g));
            }
        }
        let (_, intellector) = sample(INTELLECTOR_SAMPLE);
        assert_eq!(sample(INTELLECTOR_SAMPLE).0.net_file, "src/intellector/net.bin");
        // A position has at most 28 pieces, each a fine and a coarse feature per perspective.
        assert!((0..intellector.len()).all(|i| intellector.us(i).len() <= 56 && intellector.them(i).len() <= 56));
    }

    #[test]
    fn files_of_two_games_are_refused() {
        let files = [HIVE_SAMPLE.to_string(), INTELLECTOR_SAMPLE.to_string()];
        let error = load(&files, GameOptions::default()).unwrap_err();
        assert_eq!(error.to_string(), format!("{INTELLECTOR_SAMPLE}: positions of two games"));
    }

    #[test]
    fn a_residual_network_starts_as_the_hand_written_evaluation_and_learns() {
        for file in [HIVE_SAMPLE, INTELLECTOR_SAMPLE] {
            let (shape, data) = sample(file);
            let k = fit_scale(&data);
            let settings = settings(30, 1.0, 64, true, 1, 0.0);
            let start = FloatNet::new(shape, shape.hidden, &settings);
            let before = start.error(&data, k, 1.0, true);
            assert!((before - classic_error(&data, k, 1.0)).abs() < 1e-6, "{file}: {before}");
            let trained = train(&data, k, start, &settings, &mut |_, _| {});
            let after = trained.error(&data, k, 1.0, true);
            assert!(after < before, "{file}: training error {before} -> {after}");
        }
    }

    #[test]
    fn weight_decay_keeps_the_first_layer_small() {
        let (shape, data) = sample(HIVE_SAMPLE);
        let k = fit_scale(&data);
        let size = |weight_decay: f32| {
            let settings = settings(10, 0.0, 64, true, 3, weight_decay);
            let trained = train(&data, k, FloatNet::new(shape, shape.hidden, &settings), &settings, &mut |_, _| {});
            trained.w1.iter().map(|w| w.abs() as f64).sum::<f64>()
        };
        let (free, decayed) = (size(0.0), size(20.0));
        // Each of the 50 steps shrinks by 1 - 0.01 * 20 = 0.8 before Adam's step: the initial
        // weights are all but gone, and what is learned stays small.
        assert!(decayed < free / 4.0, "sum of |w1|: {free} without decay, {decayed} with");
    }

    #[test]
    fn another_accumulator_size_trains_but_is_not_written() {
        let (shape, data) = sample(INTELLECTOR_SAMPLE);
        let k = fit_scale(&data);
        let settings = settings(2, 1.0, 64, true, 1, 0.0);
        let trained = train(&data, k, FloatNet::new(shape, 8, &settings), &settings, &mut |_, _| {});
        assert!(trained.error(&data, k, 1.0, true).is_finite());
        assert_eq!(trained.to_file(k, true), None);
        let engine_sized = FloatNet::new(shape, shape.hidden, &settings);
        let bytes = engine_sized.to_file(k, true).expect("the engine's size is written");
        assert!(crate::intellector::net::Network::from_bytes(&bytes, shape.inputs).is_ok());
    }

    /// Trains a pure network briefly on `file` and checks the quantized network's score of its
    /// first positions against the float one's.
    fn quantized_scores_as_float<const H: usize, P: Learned>(file: &str, position: fn(&AnyGame) -> &P) {
        let (shape, data) = sample(file);
        let k = fit_scale(&data);
        let settings = settings(5, 1.0, 32, false, 2, 0.0);
        let float = train(&data, k, FloatNet::new(shape, H, &settings), &settings, &mut |_, _| {});
        let network = float.quantize::<H>(k, false);
        let lines = std::fs::read_to_string(file).unwrap();
        for line in lines.lines().filter(|l| !l.starts_with('#')).take(40) {
            let game = GameOptions::default().parse(line.splitn(3, '\t').nth(2).unwrap()).unwrap();
            let game = position(&game);
            let mut one = NetData::default();
            one.push(Position::of(game, &shape, 0.5, 0.0), 0);
            let (y, _) = float.forward(&one, 0, k, false);
            let float_eval = y / k;
            let int_eval = network.evaluate(game) as f32;
            // Within the rounding of up to 56 first-layer rows at 1/128 and the output's floor
            // (a few evaluation units: 3.7 seen for Hive with offsets within three steps).
            let bound = 5.0 + 0.02 * float_eval.abs();
            assert!((float_eval - int_eval).abs() < bound, "{file}: {float_eval} vs {int_eval}");
        }
    }

    #[test]
    fn the_quantized_network_scores_as_the_float_one() {
        quantized_scores_as_float::<{ crate::hive::net::HIDDEN }, Hive>(HIVE_SAMPLE, |g| match g {
            AnyGame::Hive(g) => g.hive(),
            AnyGame::Intellector(_) => unreachable!("a Hive sample"),
        });
        quantized_scores_as_float::<{ crate::intellector::net::HIDDEN }, _>(INTELLECTOR_SAMPLE, |g| match g {
            AnyGame::Intellector(g) => g.position(),
            AnyGame::Hive(_) => unreachable!("an Intellector sample"),
        });
    }
}
