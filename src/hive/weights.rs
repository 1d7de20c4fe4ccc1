//! The Hive evaluation's weights, one `[opening, end game]` pair per feature of
//! [`FEATURES`](super::eval::FEATURES), in hundredths of a piece.
//!
//! Written by `comb tune`; edit by hand only to try a change, then tune again.

use crate::eval::Weight;

/// The weights in use.
pub const WEIGHTS: [Weight; 70] = [
    [0, 0],       // queen_ring_0
    [-15, -15],   // queen_ring_1
    [-45, -45],   // queen_ring_2
    [-100, -100], // queen_ring_3
    [-190, -190], // queen_ring_4
    [-330, -330], // queen_ring_5
    [0, 0],       // queen_ring_6
    [-25, -25],   // stuck_neighbour
    [20, 20],     // queen_free
    [-90, -90],   // queen_covered
    [45, 45],     // pillbug_guard
    [20, 20],     // on_top
    [22, 22],     // attackers
    [12, 12],     // tempo
    [0, 0],       // mobile_queen
    [12, 12],     // mobile_spider
    [30, 30],     // mobile_beetle
    [14, 14],     // mobile_grasshopper
    [40, 40],     // mobile_ant
    [32, 32],     // mobile_mosquito
    [24, 24],     // mobile_ladybug
    [18, 18],     // mobile_pillbug
    [0, 0],       // in_hand_queen
    [6, 6],       // in_hand_spider
    [12, 12],     // in_hand_beetle
    [8, 8],       // in_hand_grasshopper
    [16, 16],     // in_hand_ant
    [14, 14],     // in_hand_mosquito
    [10, 10],     // in_hand_ladybug
    [8, 8],       // in_hand_pillbug
    [0, 0],       // pinned_queen
    [0, 0],       // pinned_spider
    [0, 0],       // pinned_beetle
    [0, 0],       // pinned_grasshopper
    [0, 0],       // pinned_ant
    [0, 0],       // pinned_mosquito
    [0, 0],       // pinned_ladybug
    [0, 0],       // pinned_pillbug
    [0, 0],       // covered_queen
    [0, 0],       // covered_spider
    [0, 0],       // covered_beetle
    [0, 0],       // covered_grasshopper
    [0, 0],       // covered_ant
    [0, 0],       // covered_mosquito
    [0, 0],       // covered_ladybug
    [0, 0],       // covered_pillbug
    [0, 0],       // noisy_queen
    [0, 0],       // noisy_spider
    [0, 0],       // noisy_beetle
    [0, 0],       // noisy_grasshopper
    [0, 0],       // noisy_ant
    [0, 0],       // noisy_mosquito
    [0, 0],       // noisy_ladybug
    [0, 0],       // noisy_pillbug
    [0, 0],       // friendly_neighbours_queen
    [0, 0],       // friendly_neighbours_spider
    [0, 0],       // friendly_neighbours_beetle
    [0, 0],       // friendly_neighbours_grasshopper
    [0, 0],       // friendly_neighbours_ant
    [0, 0],       // friendly_neighbours_mosquito
    [0, 0],       // friendly_neighbours_ladybug
    [0, 0],       // friendly_neighbours_pillbug
    [0, 0],       // enemy_neighbours_queen
    [0, 0],       // enemy_neighbours_spider
    [0, 0],       // enemy_neighbours_beetle
    [0, 0],       // enemy_neighbours_grasshopper
    [0, 0],       // enemy_neighbours_ant
    [0, 0],       // enemy_neighbours_mosquito
    [0, 0],       // enemy_neighbours_ladybug
    [0, 0],       // enemy_neighbours_pillbug
];
