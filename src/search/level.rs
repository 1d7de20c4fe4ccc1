//! Difficulty levels: weaker play that still looks like a person's.
//!
//! A level below [`Level::Max`] searches only a few plies, scores several root moves exactly
//! (multi-PV), and then draws its move at random among them, each with a weight that falls
//! with the score it gives up: `exp(-(best - score) / temperature)`. So it answers at once,
//! plays the obvious move most of the time, slips now and then in the way a person does (a
//! slightly worse move far more often than a blunder), and never repeats itself from game to
//! game unless given a seed. The numbers of each level are each game's own
//! ([`Game::LEVELS`]), set by matches against the opponents named in the README's calibration
//! tables.
//!
//! A level's depth is comb's depth: with its pruning and reductions comb's depth N is not
//! another engine's depth N, which is why the levels are measured, not matched by depth.

use super::{is_mate_score, Limits, RootLine};
use crate::game::{Game, LevelShape};
use crate::zobrist::{splitmix64, SplitMix64};

/// How strongly the engine plays.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Level {
    /// A beginner: two plies, a loose choice among many moves.
    Easy,
    /// A club player.
    Medium,
    /// A strong player.
    Hard,
    /// Full strength: the search's best move, as deep as the limits allow.
    #[default]
    Max,
}

impl Level {
    /// Every level, weakest first (the order of the UHP option's values).
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Max];

    /// The level's name as the option and the command line spell it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "Easy",
            Level::Medium => "Medium",
            Level::Hard => "Hard",
            Level::Max => "Max",
        }
    }

    /// The level of a name, in any case.
    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(text))
    }

    /// How the level searches and chooses in the game `G`; `None` for full strength.
    pub fn shape<G: Game>(self) -> Option<LevelShape> {
        match self {
            Level::Easy => Some(G::LEVELS[0]),
            Level::Medium => Some(G::LEVELS[1]),
            Level::Hard => Some(G::LEVELS[2]),
            Level::Max => None,
        }
    }

    /// The limits of a search at this level in the game `G`: the depth and the nodes are
    /// capped by the level's, the time kept (a level answers at once, but never later than
    /// asked).
    pub fn limits<G: Game>(self, limits: Limits) -> Limits {
        match self.shape::<G>() {
            Some(shape) => Limits {
                depth: Some(limits.depth.map_or(shape.depth, |d| d.min(shape.depth))),
                nodes: Some(limits.nodes.map_or(shape.nodes, |n| n.min(shape.nodes))),
                ..limits
            },
            None => limits,
        }
    }
}

/// A seed that differs from run to run (the clock and the process id), for a level's draws
/// when no seed is given.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    splitmix64(nanos as u64 ^ (u64::from(std::process::id()) << 32)).1
}

/// The seeded draw of a level's move.
#[derive(Clone, Debug)]
pub struct Chooser {
    rng: SplitMix64,
}

impl Chooser {
    /// A chooser whose draws depend only on `seed` and on how many draws came before.
    pub fn new(seed: u64) -> Chooser {
        Chooser { rng: SplitMix64::new(seed) }
    }

    /// The index of the line to play among `lines` (best first), drawn with weights
    /// `exp(-(best - score) / temperature)`. Always 0 for one line, a non-positive
    /// temperature, or a forced win seen: mate scores differ by a point a ply, so a quicker
    /// mate would barely outweigh a slower one, and a person who sees a win plays it.
    pub fn choose<M>(&mut self, lines: &[RootLine<M>], temperature: f64) -> usize {
        let best = lines.first().map_or(0, |l| l.score);
        if lines.len() <= 1 || temperature <= 0.0 || (is_mate_score(best) && best > 0) {
            return 0;
        }
        let weight = |l: &RootLine<M>| (-((best - l.score) as f64) / temperature).exp();
        let total: f64 = lines.iter().map(weight).sum();
        let mut target = self.rng.unit() * total;
        for (i, line) in lines.iter().enumerate() {
            target -= weight(line);
            if target < 0.0 {
                return i;
            }
        }
        lines.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(scores: &[i32]) -> Vec<RootLine<u8>> {
        scores.iter().map(|&score| RootLine { score, pv: vec![] }).collect()
    }

    #[test]
    fn names_round_trip() {
        for level in Level::ALL {
            assert_eq!(Level::parse(level.name()), Some(level));
            assert_eq!(Level::parse(&level.name().to_uppercase()), Some(level));
        }
        assert_eq!(Level::parse("Expert"), None);
    }

    #[test]
    fn levels_cap_the_depth_and_keep_the_clock() {
        type H = crate::hive::Hive;
        let asked = Limits { depth: Some(9), time: Some(std::time::Duration::from_secs(1)), nodes: None };
        assert_eq!(Level::Easy.limits::<H>(asked).depth, Some(H::LEVELS[0].depth));
        assert_eq!(Level::Easy.limits::<H>(asked).time, asked.time);
        assert_eq!(Level::Hard.limits::<H>(asked).nodes, Some(H::LEVELS[2].nodes));
        assert_eq!(Level::Hard.limits::<H>(Limits { nodes: Some(5), ..asked }).nodes, Some(5));
        assert_eq!(Level::Hard.limits::<H>(Limits::depth(2)).depth, Some(2));
        assert_eq!(Level::Max.limits::<H>(asked), asked);
    }

    /// Each game's levels grow stronger from Easy to Hard: no shallower, no looser, no more lines.
    fn assert_levels_grow_stronger<G: Game>() {
        for pair in G::LEVELS.windows(2) {
            let (weaker, stronger) = (pair[0], pair[1]);
            assert!(weaker.depth <= stronger.depth && weaker.temperature >= stronger.temperature, "{pair:?}");
            assert!(stronger.lines >= 1 && weaker.lines >= stronger.lines, "{pair:?}");
        }
    }

    #[test]
    fn levels_grow_stronger_in_both_games() {
        assert_levels_grow_stronger::<crate::hive::Hive>();
        assert_levels_grow_stronger::<crate::intellector::Position>();
    }

    #[test]
    fn the_draw_favours_better_moves_and_repeats_with_its_seed() {
        let l = lines(&[50, 40, -200, -30000]);
        let mut counts = [0; 4];
        let mut chooser = Chooser::new(7);
        for _ in 0..10_000 {
            counts[chooser.choose(&l, 20.0)] += 1;
        }
        // Weights 1, e^-0.5, e^-12.5, ~0: about 62 % and 38 %, almost never the blunder.
        assert!(counts[0] > counts[1] && counts[1] > 3000, "{counts:?}");
        assert!(counts[2] < 5 && counts[3] == 0, "{counts:?}");
        let draws = |seed| {
            let mut c = Chooser::new(seed);
            (0..20).map(|_| c.choose(&l, 20.0)).collect::<Vec<_>>()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
        assert_eq!(Chooser::new(1).choose(&l, 0.0), 0);
    }
}
