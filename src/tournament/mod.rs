//! `comb tournament`: engine-against-engine matches between any engines that speak UHP, in the
//! manner of cutechess-cli and fastchess.
//!
//! - [`stats`]: Elo, error margin, LOS, pentanomial counts, SPRT.

pub mod stats;
