//! Random keys for the games' Zobrist tables, generated at compile time.

/// One step of the splitmix64 generator: the next state and its output. Deterministic, so
/// hashes (and the search's node counts) are the same on every build.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// A small, fast, seedable generator over [`splitmix64`] (the one the Zobrist keys come from):
/// the same seed gives the same tournament, self-play file and level moves on every platform.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (state, bits) = splitmix64(self.0);
        self.0 = state;
        bits
    }

    /// A number in `0..n` (n > 0), by multiply-shift: no modulo bias worth mentioning for the
    /// sizes drawn from (book lines, moves).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A uniform number in `[0, 1)`, with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
