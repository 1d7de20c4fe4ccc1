//! Which tournament a game belongs to: the settings that decide the schedule and the engines
//! (not the shard, the concurrency or the output files), written out as text, and their hash,
//! the tournament id. Every JSONL line carries both, so that the shards of one tournament can
//! be told from those of another when they are merged.
//!
//! An engine's line is `engineN=NAME | COMMAND | LIMIT | SYNC | TIMECMD | OPTIONS`, each field
//! with `\`, `|` and line breaks escaped by a backslash, so that any name reads back
//! ([`engine_name`]) and every engine stays on its line.

use super::referee::Rules;
use super::schedule::{GameSpec, Mode};
use super::stats::Sprt;
use crate::client::EngineConfig;
use std::sync::Arc;

/// A tournament's settings and id (empty by default, before they are known).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// A hash of `settings`, 16 hexadecimal digits.
    pub id: String,
    /// The settings, one `key=value` a line.
    pub settings: String,
}

/// What decides who plays whom, how, from which opening, and the test: all that a tournament's
/// identity is made of.
#[derive(Copy, Clone, Debug)]
pub struct Decisive<'a> {
    /// The game type every game is played in.
    pub game_type: &'a str,
    /// How engines are paired.
    pub mode: Mode,
    /// The engines, in command-line order, with unique names.
    pub engines: &'a [Arc<EngineConfig>],
    /// Rounds to play.
    pub rounds: usize,
    /// Adjudication (its timeouts are not part of the identity).
    pub rules: &'a Rules,
    /// The SPRT to stop at, if any.
    pub sprt: Option<&'a Sprt>,
    /// The full (unsharded) schedule.
    pub games: &'a [GameSpec],
}

/// The identity of the tournament that `t` decides.
pub fn identify(t: &Decisive) -> Identity {
    let settings = settings(t);
    Identity { id: format!("{:016x}", fnv1a(settings.as_bytes())), settings }
}

/// The settings as text, one `key=value` a line.
fn settings(t: &Decisive) -> String {
    let games = t.games;
    let mode = match t.mode {
        Mode::RoundRobin => "round-robin",
        Mode::Gauntlet => "gauntlet",
    };
    let mut lines = vec![
        format!("game_type={}", t.game_type),
        format!("mode={mode}"),
        format!("engines={}", t.engines.len()),
        format!("rounds={}", t.rounds),
        format!("games={}", games.len()),
        format!("max_plies={}", t.rules.max_plies),
        format!("repetitions={}", t.rules.repetitions),
        format!("intellector_rules={:?}", t.rules.game.intellector_rules),
        format!("sprt={}", t.sprt.map_or("none".to_string(), sprt_text)),
        // The schedule itself stands for the book, its order and seed: shards that would play
        // other openings are other tournaments, whatever the files are called.
        format!("schedule={:016x}", schedule_hash(games)),
    ];
    for (i, e) in t.engines.iter().enumerate() {
        let options: Vec<String> = e.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        lines.push(format!(
            "engine{}={} | {} | {} | {:?} | {:?} | {}",
            i + 1,
            escape(&e.name),
            escape(&e.command_line()),
            e.limit.describe(),
            e.sync,
            e.time_command,
            escape(&options.join(" "))
        ));
    }
    lines.join("\n")
}

/// A field of an engine's line with `\`, `|`, `\n` and `\r` escaped by a backslash. Text
/// without them is unchanged, and so is the tournament id of settings without them.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '|' => out.push_str("\\|"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The engine's name from the value of its settings line (`NAME | COMMAND | …`), unescaped.
pub fn engine_name(line: &str) -> String {
    let mut name = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => name.push('\n'),
                Some('r') => name.push('\r'),
                Some(c) => name.push(c),
                None => {}
            },
            // The field ends at the first bare `|`, after the space of ` | `.
            '|' => {
                name.pop();
                break;
            }
            c => name.push(c),
        }
    }
    name
}

/// `elo0=0 elo1=5 alpha=0.05 beta=0.05`, as `--sprt` takes it.
pub fn sprt_text(s: &Sprt) -> String {
    format!("elo0={} elo1={} alpha={} beta={}", s.elo0, s.elo1, s.alpha, s.beta)
}

/// A hash of every game's number, pair, colours and opening.
fn schedule_hash(games: &[GameSpec]) -> u64 {
    let text: Vec<String> = games
        .iter()
        .map(|g| format!("{} {} {} {} {}", g.number, g.pair, g.white, g.black, g.opening.as_deref().unwrap_or("")))
        .collect();
    fnv1a(text.join("\n").as_bytes())
}

/// The 64-bit FNV-1a hash: stable across builds and platforms, unlike `std`'s hasher.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_engine_name_reads_back() {
        for name in ["comb", "a | b", "x|y", "back\\slash\\", "two\nlines", " spaced ", "|", ""] {
            let line = format!("{} | {} | depth=1 | NewGame | Time | ", escape(name), escape("cmd | x\\"));
            assert_eq!(engine_name(&line), name, "{line}");
            assert!(!line.contains('\n'));
        }
        assert_eq!(escape("plain name, with = and spaces"), "plain name, with = and spaces");
    }

    #[test]
    fn fnv1a_matches_its_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }
}
