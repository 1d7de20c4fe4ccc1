//! The training loop: self-play games that write positions with their results
//! ([`selfplay`]), and the tuner that fits the evaluation weights to them ([`tune`]).

pub mod net;
pub mod selfplay;
pub mod tune;
