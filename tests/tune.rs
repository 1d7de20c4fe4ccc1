//! `comb tune`: the tuner recovers known weights from synthetic data, learns from real
//! self-play positions, and writes weights files the engine compiles.

use comb::eval::{Trace, Tunable};
use comb::games::GameOptions;
use comb::hive::Hive;
use comb::train::tune::{self, Data, Settings, TuneError};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A deterministic stream of numbers in [0, 1).
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> f64 {
        let (state, out) = comb::zobrist::splitmix64(self.0);
        self.0 = state;
        (out >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn the_tuner_recovers_the_weights_that_made_the_data() {
    const FEATURES: usize = 12;
    const SCALE: f64 = 0.004;
    let mut rng = Stream(42);
    let truth: Vec<[f64; 2]> =
        (0..FEATURES).map(|_| [(rng.next() * 300.0 - 150.0).round(), (rng.next() * 300.0 - 150.0).round()]).collect();
    let mut data = Data::new();
    for _ in 0..30_000 {
        let mut trace = Trace { phase: (rng.next() * 257.0) as i32, counts: Vec::new() };
        for _ in 0..5 {
            let feature = (rng.next() * FEATURES as f64) as u16;
            let count = (rng.next() * 7.0) as i16 - 3;
            trace.counts.push((feature, count));
        }
        trace.finish();
        let phase = trace.phase as f64 / 256.0;
        let eval: f64 = trace
            .counts
            .iter()
            .map(|&(f, n)| n as f64 * (truth[f as usize][0] * phase + truth[f as usize][1] * (1.0 - phase)))
            .sum();
        // The expected score of a position, as the mean of many games would give it.
        data.push(&trace, sigmoid(SCALE * eval), 0.0);
    }

    let k = tune::fit_scale(&data, &truth);
    assert!((k / SCALE - 1.0).abs() < 0.01, "scale {k}");

    let settings = Settings { epochs: 3000, learning_rate: 2.0, lambda: 1.0 };
    let zeros = vec![[0.0; 2]; FEATURES];
    let fitted = tune::fit_weights(&data, k, &zeros, &settings, &mut |_, _| {});
    for (f, (got, want)) in fitted.iter().zip(&truth).enumerate() {
        for p in 0..2 {
            assert!((got[p] - want[p]).abs() < 3.0, "feature {f} phase {p}: fitted {got:?}, made with {want:?}");
        }
    }
    assert!(tune::error(&data, k, 1.0, &fitted) < 1e-5);
}

fn sample() -> String {
    format!("{}/positions/selfplay-sample.txt", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn tuning_on_self_play_positions_lowers_the_error() {
    let (game, data) = tune::load(&[sample()], GameOptions::default()).unwrap();
    assert_eq!(game, tune::TunedGame::Hive);
    assert_eq!(data.len(), 300);
    let start = tune::current(game);
    let k = tune::fit_scale(&data, &start);
    assert!(k > 0.0 && k < 1.0, "{k}");
    let before = tune::error(&data, k, 1.0, &start);
    let settings = Settings { epochs: 200, ..Settings::default() };
    let after = tune::error(&data, k, 1.0, &tune::fit_weights(&data, k, &start, &settings, &mut |_, _| {}));
    assert!(after < before, "{before} -> {after}");
    // Blending in the search scores is another target, also fitted.
    let blended = Settings { lambda: 0.5, ..settings };
    let fitted = tune::fit_weights(&data, k, &start, &blended, &mut |_, _| {});
    assert!(tune::error(&data, k, 0.5, &fitted) < tune::error(&data, k, 0.5, &start));
}

#[test]
fn the_weights_file_is_what_the_tuner_writes() {
    // Writing the weights in use gives the committed file, up to the line that says which
    // data they were fitted to: the tuner's output is the source the engine compiles.
    let mut written = Vec::new();
    let game = tune::TunedGame::Hive;
    tune::write_weights(&mut written, game, &tune::current(game), "").unwrap();
    let committed = std::fs::read_to_string(format!("{}/{}", env!("CARGO_MANIFEST_DIR"), game.weights_file())).unwrap();
    let provenance = |text: &str| {
        text.lines().filter(|l| !l.starts_with("//! Fitted") && *l != "//! ").map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(provenance(&String::from_utf8(written).unwrap()), provenance(&committed));
    assert_eq!(Hive::FEATURES.len(), Hive::weights().len());
}

#[test]
fn a_bad_line_is_named_by_file_and_line() {
    let dir = std::env::temp_dir().join(format!("comb-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.txt");
    std::fs::write(&file, "1\t20\tBase;NotStarted;White[1]\n2\t0\tBase;NotStarted;White[1]\n").unwrap();
    let name = file.display().to_string();
    let error = tune::load(std::slice::from_ref(&name), GameOptions::default()).unwrap_err();
    assert!(matches!(&error, TuneError::Line { line: 2, .. }), "{error}");
    assert_eq!(error.to_string(), format!("{name}:2: result 2 is not between 0 and 1"));
    std::fs::write(&file, "1\t0\tIntellector;NotStarted;White[1]\n0\t0\tBase;NotStarted;White[1]\n").unwrap();
    let error = tune::load(std::slice::from_ref(&name), GameOptions::default()).unwrap_err();
    assert_eq!(error.to_string(), format!("{name}: positions of two games"));
    std::fs::remove_dir_all(&dir).unwrap();
}
