//! One module per bug's own movement. Each adds methods to [`super::Hive`] that emit the
//! destinations of one piece through [`super::Hive::emit`], which removes duplicates.
//!
//! The pillbug's throw is not here: it moves *other* pieces, so the generator in
//! [`super::movegen`] handles it for the pillbug and for a mosquito next to one.

mod ant;
mod beetle;
mod grasshopper;
mod ladybug;
mod mosquito;
mod pillbug;
mod queen;
mod spider;

#[cfg(test)]
mod tests;
