//! Move generation and perft on the reference positions (start and the 86-move mid-game).

use comb::hive::HiveGame;
use comb::intellector::{IntellectorGame, Rules};
use comb::perft::perft;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

const MID: &str = "Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\";

fn hive(position: &str) -> comb::hive::Hive {
    HiveGame::parse(position).unwrap().hive().clone()
}

fn movegen(c: &mut Criterion) {
    let mut mid = hive(MID);
    let mut moves = Vec::with_capacity(256);
    c.bench_function("hive movegen mid-game (86 moves)", |b| {
        b.iter(|| {
            mid.generate_moves(&mut moves);
            black_box(moves.len())
        })
    });
    let mut start = hive("Base+MLP;NotStarted;White[1]");
    c.bench_function("hive make+unmake mid-game (all moves)", |b| {
        mid.generate_moves(&mut moves);
        let list = moves.clone();
        b.iter(|| {
            for &m in &list {
                mid.make(m);
                mid.unmake(m);
            }
        })
    });
    let mut buffers = Vec::new();
    c.bench_function("hive perft 4 Base+MLP start", |b| b.iter(|| perft(&mut start, 4, &mut buffers)));
    c.bench_function("hive perft 3 mid-game", |b| b.iter(|| perft(&mut mid, 3, &mut buffers)));
    let mut intellector = IntellectorGame::new(Rules::Modern).position().clone();
    let mut intellector_buffers = Vec::new();
    c.bench_function("intellector perft 3 start", |b| b.iter(|| perft(&mut intellector, 3, &mut intellector_buffers)));
}

criterion_group!(benches, movegen);
criterion_main!(benches);
