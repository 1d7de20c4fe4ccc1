//! The Intellector evaluation's weights, one `[opening, end game]` pair per feature of
//! [`FEATURES`](super::eval::FEATURES), in hundredths of a centipawn (a Progressor is 10000).
//!
//! Written by `comb tune`; edit by hand only to try a change, then tune again.

use crate::eval::Weight;

/// The weights in use.
pub const WEIGHTS: [Weight; 26] = [
    [10000, 10000],   // material_progressor
    [60000, 60000],   // material_dominator
    [20000, 20000],   // material_aggressor
    [15000, 15000],   // material_defensor
    [17000, 17000],   // material_liberator
    [0, 0],           // progressor_advance_0
    [9000, 9000],     // progressor_advance_1
    [4500, 4500],     // progressor_advance_2
    [2200, 2200],     // progressor_advance_3
    [1000, 1000],     // progressor_advance_4
    [400, 400],       // progressor_advance_5
    [0, 0],           // progressor_advance_6
    [300, 300],       // mobility
    [1000, 1000],     // defender_next_to_intellector
    [800, 800],       // intellector_escape
    [-600, -600],     // controlled_next_to_intellector
    [-1400, -1400],   // attacker_near_intellector
    [0, 0],           // intellector_advance_0
    [12000, 12000],   // intellector_advance_1
    [4000, 4000],     // intellector_advance_2
    [1000, 1000],     // intellector_advance_3
    [500000, 500000], // win_in_one
    [-15000, -15000], // intellector_attacked
    [-15000, -15000], // breakthrough_threatened
    [60, 60],         // best_gain
    [-40, -40],       // second_threat
];
