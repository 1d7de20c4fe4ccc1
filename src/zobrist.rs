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
