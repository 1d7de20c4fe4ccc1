//! Games as JSON Lines: one object per game, so a run can be analysed (or resumed) without
//! parsing PGN. Written by hand: strings are escaped as RFC 8259 requires.
//!
//! ```json
//! {"game":17,"round":9,"pair":8,"game_type":"Base+MLP","white":"A","black":"B",
//!  "white_limit":"depth=2","black_limit":"depth=2","opening":"Base+MLP;…","opening_plies":2,
//!  "result":"WhiteWins","score":"1-0","reason":"surrounded","detail":"queen surrounded",
//!  "plies":63,"game_string":"Base+MLP;WhiteWins;Black[32];…","moves":["wS1",…],
//!  "started":"2026-05-01T10:00:00Z","seconds":4.213,"white_seconds":2.1,"black_seconds":2.05,
//!  "tournament":"3f0c…","shard":"2/3","settings":"game_type=Base+MLP\nmode=round-robin\n…"}
//! ```
//! (one line per game in the file). `opening` is `null` for games from the empty board, `shard`
//! for a run of the whole schedule. `tournament` is the id of the settings (see
//! [`super::identity`]); they come last, so that a reader looking for a game's own fields meets
//! those first.

use super::identity::Identity;
use super::shard::Shard;
use super::{utc, GameRecord};

/// `text` as a JSON string literal, quotes included.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A number of seconds with millisecond precision.
fn seconds(d: std::time::Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The fields that end every line of a run: `"tournament":…,"shard":…,"settings":…`.
pub fn tail(identity: &Identity, shard: Option<Shard>) -> String {
    format!(
        "\"tournament\":{},\"shard\":{},\"settings\":{}",
        string(&identity.id),
        shard.map_or("null".to_string(), |s| string(&s.to_string())),
        string(&identity.settings)
    )
}

/// One game as a single line of JSON (without the line break), ending with `tail`.
pub fn format_game(record: &GameRecord, tail: &str) -> String {
    let p = &record.played;
    let (y, mo, d, h, mi, s) = utc(p.started);
    let moves: Vec<String> = p.moves.iter().map(|m| string(m)).collect();
    let fields = [
        ("game", record.number.to_string()),
        ("round", record.round.to_string()),
        ("pair", record.pair.to_string()),
        ("game_type", string(&record.game_type)),
        ("white", string(&record.white_name)),
        ("black", string(&record.black_name)),
        ("white_limit", string(&record.white_limit)),
        ("black_limit", string(&record.black_limit)),
        ("opening", record.opening.as_deref().map_or("null".to_string(), string)),
        ("opening_plies", p.opening_plies.to_string()),
        ("result", string(p.result.state())),
        ("score", string(p.result.score())),
        ("reason", string(p.termination.reason)),
        ("detail", string(&p.termination.detail)),
        ("plies", p.moves.len().to_string()),
        ("game_string", string(&p.game_string)),
        ("moves", format!("[{}]", moves.join(","))),
        ("started", string(&format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z"))),
        ("seconds", seconds(p.duration)),
        ("white_seconds", seconds(p.think[0])),
        ("black_seconds", seconds(p.think[1])),
    ];
    let body: Vec<String> = fields.iter().map(|(k, v)| format!("{}:{v}", string(k))).collect();
    format!("{{{},{tail}}}", body.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_everything_json_requires() {
        assert_eq!(string("plain"), "\"plain\"");
        assert_eq!(string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(string("l1\nl2\r\t"), "\"l1\\nl2\\r\\t\"");
        assert_eq!(string("\u{1}\u{1f}\u{7f}"), "\"\\u0001\\u001f\\u007f\"");
        assert_eq!(string("wG1 \\wS1 é"), "\"wG1 \\\\wS1 é\"");
    }

    #[test]
    fn one_line_per_game() {
        let identity = Identity { id: "0123456789abcdef".into(), settings: "mode=gauntlet\nrounds=2".into() };
        let line =
            format_game(&super::super::pgn::tests::sample(), &tail(&identity, Some(Shard { index: 2, count: 3 })));
        assert!(!line.contains('\n'));
        assert!(line.starts_with("{\"game\":17,\"round\":9,\"pair\":8,\"game_type\":\"Base\","));
        assert!(line.contains("\"white\":\"A \\\"the ant\\\"\""));
        assert!(line.contains("\"opening\":\"Base;InProgress;Black[1];wS1\",\"opening_plies\":1,"));
        assert!(line.contains("\"result\":\"BlackWins\",\"score\":\"0-1\",\"reason\":\"illegal-move\""));
        assert!(line.contains("\"detail\":\"illegal move by A: `pass` {really}\\nnow\""));
        assert!(line.contains("\"moves\":[\"wS1\",\"bS1 wS1-\",\"wG1 \\\\wS1\"]"));
        assert!(line.contains("\"plies\":3,"));
        assert!(line.contains("\"started\":\"2000-02-29T00:00:00Z\",\"seconds\":2.000"));
        assert!(line.contains("\"white_seconds\":1.500,\"black_seconds\":0.250,"));
        assert!(line.ends_with(
            "\"tournament\":\"0123456789abcdef\",\"shard\":\"2/3\",\"settings\":\"mode=gauntlet\\nrounds=2\"}"
        ));
    }
}
