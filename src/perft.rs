//! Perft: counting the leaves of the legal move tree, to check move generation against known
//! figures and to measure its speed. Generic over [`Game`].

use crate::game::Game;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Number of leaves `depth` plies below `game` (bulk-counted at the last ply: the moves of
/// the final position are counted, not played). A finished game has no moves, so it counts as
/// a leaf only at depth 0.
///
/// `buffers` holds one move list per ply and grows to `depth` lists; reusing it across calls
/// keeps the count free of allocations.
pub fn perft<G: Game>(game: &mut G, depth: usize, buffers: &mut Vec<Vec<G::Move>>) -> u64 {
    if depth == 0 {
        return 1;
    }
    while buffers.len() < depth {
        buffers.push(Vec::with_capacity(256));
    }
    count(game, depth, buffers)
}

fn count<G: Game>(game: &mut G, depth: usize, buffers: &mut [Vec<G::Move>]) -> u64 {
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    game.generate_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    if depth == 2 {
        // The last ply before the leaves, where most positions are: their moves are counted
        // here, without a call a position.
        let leaves = &mut rest[0];
        for &mv in moves.iter() {
            game.make(mv);
            game.generate_moves(leaves);
            total += leaves.len() as u64;
            game.unmake(mv);
        }
        return total;
    }
    for &mv in moves.iter() {
        game.make(mv);
        total += count(game, depth - 1, rest);
        game.unmake(mv);
    }
    total
}

/// The same count, split over threads with rayon: the moves of the first ply (and of the
/// second, for depth 4 and more, to balance the work) are searched in parallel, each by its
/// own copy of the position.
pub fn perft_parallel<G: Game>(game: &G, depth: usize) -> u64 {
    if depth <= 2 {
        return perft(&mut game.clone(), depth, &mut Vec::new());
    }
    let mut root = game.clone();
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    let split_twice = depth >= 4;
    moves
        .par_iter()
        .map(|&mv| {
            let mut g = root.clone();
            g.make(mv);
            if split_twice {
                perft_parallel(&g, depth - 1)
            } else {
                perft(&mut g, depth - 1, &mut Vec::new())
            }
        })
        .sum()
}

/// Perft with a check at every node: the incremental hash equals `from_scratch`, and making
/// then unmaking each move restores hash and position. Panics on the first mismatch.
pub fn perft_checked<G: Game + PartialEq + std::fmt::Debug>(
    game: &mut G,
    depth: usize,
    from_scratch: &dyn Fn(&G) -> u64,
) -> u64 {
    assert_eq!(game.hash(), from_scratch(game), "incremental hash differs from a fresh one in {game:?}");
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in &moves {
        let before = game.clone();
        game.make(mv);
        total += perft_checked(game, depth - 1, from_scratch);
        game.unmake(mv);
        assert!(*game == before, "make/unmake of {mv:?} did not restore {before:?}");
    }
    total
}

/// Serial perft that gives up (returning `None`) soon after `stop` is raised, for commands a
/// user may interrupt.
pub fn perft_interruptible<G: Game>(game: &mut G, depth: usize, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    let n = count_interruptible(game, depth, &mut buffers, stop);
    (!stop.load(Ordering::Relaxed)).then_some(n)
}

fn count_interruptible<G: Game>(game: &mut G, depth: usize, buffers: &mut [Vec<G::Move>], stop: &AtomicBool) -> u64 {
    if depth <= 2 {
        return count(game, depth, buffers);
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    game.generate_moves(moves);
    let mut total = 0;
    for &mv in moves.iter() {
        if stop.load(Ordering::Relaxed) {
            return 0;
        }
        game.make(mv);
        total += count_interruptible(game, depth - 1, rest, stop);
        game.unmake(mv);
    }
    total
}
