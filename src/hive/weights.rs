//! The Hive evaluation's weights, one `[opening, end game]` pair per feature of
//! [`FEATURES`](super::eval::FEATURES), in hundredths of a piece.
//!
//! Written by `comb tune`; edit by hand only to try a change, then tune again.
//! Fitted to 55036 positions (`comb selfplay --game Base+MLP --games 1200 --depth 3 --seed 11` at commit 4df051f), k = 0.004408, 1000 epochs, learning rate 2, lambda 0.5: error 0.048716 -> 0.044362 (held out 0.049338 -> 0.045099).

use crate::eval::Weight;

/// The weights in use.
pub const WEIGHTS: [Weight; 70] = [
    [0, 0],       // queen_ring_0
    [76, -83],    // queen_ring_1
    [-45, -60],   // queen_ring_2
    [-163, -117], // queen_ring_3
    [-329, -172], // queen_ring_4
    [-526, -276], // queen_ring_5
    [0, 0],       // queen_ring_6
    [-33, -54],   // stuck_neighbour
    [100, 31],    // queen_free
    [3, -84],     // queen_covered
    [72, -11],    // pillbug_guard
    [75, 15],     // on_top
    [29, 16],     // attackers
    [60, 7],      // tempo
    [80, 11],     // mobile_queen
    [3, -27],     // mobile_spider
    [-36, 8],     // mobile_beetle
    [-39, -4],    // mobile_grasshopper
    [-27, 6],     // mobile_ant
    [-17, -31],   // mobile_mosquito
    [-4, 4],      // mobile_ladybug
    [-102, 44],   // mobile_pillbug
    [131, 107],   // in_hand_queen
    [-103, 8],    // in_hand_spider
    [-77, 30],    // in_hand_beetle
    [-47, 18],    // in_hand_grasshopper
    [-112, 24],   // in_hand_ant
    [-169, 17],   // in_hand_mosquito
    [-110, 46],   // in_hand_ladybug
    [-206, 17],   // in_hand_pillbug
    [211, -50],   // pinned_queen
    [-34, -40],   // pinned_spider
    [-31, -27],   // pinned_beetle
    [1, -11],     // pinned_grasshopper
    [-6, -20],    // pinned_ant
    [-28, -55],   // pinned_mosquito
    [-10, -12],   // pinned_ladybug
    [-81, 38],    // pinned_pillbug
    [93, 6],      // covered_queen
    [-226, -31],  // covered_spider
    [-77, -9],    // covered_beetle
    [-59, 1],     // covered_grasshopper
    [-34, -32],   // covered_ant
    [-87, 1],     // covered_mosquito
    [89, 10],     // covered_ladybug
    [-234, -29],  // covered_pillbug
    [29, -78],    // noisy_queen
    [-47, 16],    // noisy_spider
    [12, 5],      // noisy_beetle
    [3, 8],       // noisy_grasshopper
    [42, 7],      // noisy_ant
    [-28, 28],    // noisy_mosquito
    [25, -14],    // noisy_ladybug
    [0, -7],      // noisy_pillbug
    [100, 6],     // friendly_neighbours_queen
    [-8, -1],     // friendly_neighbours_spider
    [18, -3],     // friendly_neighbours_beetle
    [9, 2],       // friendly_neighbours_grasshopper
    [-19, -3],    // friendly_neighbours_ant
    [-14, 9],     // friendly_neighbours_mosquito
    [-4, 0],      // friendly_neighbours_ladybug
    [-22, 8],     // friendly_neighbours_pillbug
    [30, 7],      // enemy_neighbours_queen
    [-8, -4],     // enemy_neighbours_spider
    [17, 6],      // enemy_neighbours_beetle
    [-1, -9],     // enemy_neighbours_grasshopper
    [-6, -11],    // enemy_neighbours_ant
    [-19, 11],    // enemy_neighbours_mosquito
    [-18, 12],    // enemy_neighbours_ladybug
    [0, -3],      // enemy_neighbours_pillbug
];
