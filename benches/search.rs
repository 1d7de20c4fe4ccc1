//! Fixed-depth searches from an empty table, single-threaded.

use comb::hive::HiveGame;
use comb::intellector::{IntellectorGame, Rules};
use comb::search::{Limits, Searcher};
use criterion::{criterion_group, criterion_main, Criterion};
use std::sync::atomic::AtomicBool;

const MID: &str = "Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\";

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let stop = AtomicBool::new(false);
    for (name, position, depth) in
        [("hive start depth 6", "Base+MLP;NotStarted;White[1]", 6), ("hive mid-game depth 5", MID, 5)]
    {
        let hive = HiveGame::parse(position).unwrap().hive().clone();
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut engine = Searcher::new(16, 1);
                engine.search(&hive, Limits::depth(depth), &stop, &mut |_| {}).nodes
            })
        });
    }
    let intellector = IntellectorGame::new(Rules::Modern).position().clone();
    group.bench_function("intellector start depth 6", |b| {
        b.iter(|| {
            let mut engine = Searcher::new(16, 1);
            engine.search(&intellector, Limits::depth(6), &stop, &mut |_| {}).nodes
        })
    });
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
