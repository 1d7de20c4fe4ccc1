//! `comb tournament`: engine-against-engine matches between any engines that speak UHP, in the
//! manner of cutechess-cli and fastchess.
//!
//! - [`engine`]: an engine process over UHP, with deadlines on every read and restarts;
//! - [`referee`]: comb's rules check every move and end games (rules, adjudication, failures);
//! - [`openings`]: opening books of GameStrings and their order;
//! - [`stats`]: Elo, error margin, LOS, pentanomial counts, SPRT.

pub mod engine;
pub mod openings;
pub mod referee;
pub mod stats;
