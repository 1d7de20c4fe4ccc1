//! comb: a game-playing engine for Hive (through the Universal Hive Protocol) and Intellector.
//!
//! The crate is built in floors, each using only the ones below it:
//! - rules: [`game`] (the [`game::Game`] trait), [`eval`] (evaluations as weights × features), [`record`] (a game in progress, for any
//!   game), [`games`] (the games as one enum, and the one game-type parser), [`error`],
//!   [`zobrist`], [`bitset`] (the sets of pieces and hexes), [`nnue`] (the learned evaluations'
//!   shared network), [`hive`], [`intellector`];
//! - search: [`perft`], [`search`];
//! - protocol and tools on top: [`lines`] (the bounded line reader both use), [`json`] (what
//!   the JSON outputs share), [`uhp`] (comb as an engine), [`bench`] (the search's behaviour
//!   checksum), [`client`] (comb talking to an engine: the tournament and `conformance` use it),
//!   [`pgn`] (game records in Hive PGN, written and read), [`tournament`], [`train`], [`show`]
//!   (pictures of a position, as text and SVG), [`analyze`] (game review: every move scored
//!   against comb's best), [`stdout`] (printing that survives a reader who leaves early),
//!   [`serve`] (`comb serve`: the board in the browser, its API and WebSockets, on axum and
//!   tokio, which stay inside it).

#![deny(missing_docs)]

pub mod analyze;
pub mod bench;
pub mod bitset;
pub mod client;
pub mod conformance;
pub mod error;
pub mod eval;
pub mod game;
pub mod games;
pub mod hive;
pub mod intellector;
pub mod json;
pub mod lines;
pub mod nnue;
pub mod perft;
pub mod pgn;
pub mod record;
pub mod search;
pub mod serve;
pub mod show;
pub mod stdout;
pub mod tournament;
pub mod train;
pub mod uhp;
pub mod zobrist;
