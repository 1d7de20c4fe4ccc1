//! The protocol layer's errors, and the one place where they and the rules' errors become
//! `err …` / `invalidmove …` lines.

use crate::error::RulesError;

/// Everything a command can fail with. The message is the reference engine's;
/// [`ProtocolError::reply`] makes it a line.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ProtocolError {
    /// Unknown command or missing arguments.
    #[error("Invalid command. Try 'help' to see a list of valid commands.")]
    InvalidCommand,
    /// A game command before `newgame`.
    #[error("No game in progress. Try 'newgame' to start a new game.")]
    NoGame,
    /// `undo N` with N outside 1..=plies played.
    #[error("Unable to undo {0} moves.")]
    UndoCount(i64),
    /// A number that does not parse (the text as given).
    #[error("The input string '{0}' was not in a correct format.")]
    NotANumber(String),
    /// A number outside the 32-bit range.
    #[error("Value was either too large or too small for an Int32.")]
    NumberOverflow,
    /// A time that is not `hh:mm:ss` (the text as given).
    #[error("String '{0}' was not recognized as a valid TimeSpan.")]
    BadTime(String),
    /// An option name that does not exist.
    #[error("The option \"{0}\" is not valid.")]
    UnknownOption(String),
    /// `perft` with a negative depth.
    #[error("Unable to calculate perft({0}).")]
    PerftDepth(i64),
    /// `bestmove` with a depth below 1.
    #[error("Unable to search to depth {0}: the depth must be at least 1.")]
    SearchDepth(i64),
    /// A transposition table size (MiB) the machine cannot provide.
    #[error("Unable to allocate a transposition table of {0} MB.")]
    TableSize(usize),
    /// A command that exists only for the other game (for example `sip` in Hive).
    #[error("{0}")]
    WrongGame(&'static str),
    /// An input line longer than the protocol accepts.
    #[error("Line too long ({0} bytes); the limit is 4 MiB.")]
    LineTooLong(usize),
    /// What the rules rejected; the protocol tells how to go on after a game's end.
    #[error("{}", rules_message(.0))]
    Rules(#[from] RulesError),
    /// A bug caught while running a command (the state was restored).
    #[error("Internal error: {0}")]
    Internal(String),
}

/// The rules' message, with the protocol's way on after a game's end.
fn rules_message(error: &RulesError) -> String {
    match error {
        RulesError::GameOver => "The game is over. Try 'newgame' to start a new game.".to_string(),
        error => error.to_string(),
    }
}

impl ProtocolError {
    /// The reply line, exactly as the reference engine words it: `invalidmove …` for a move the
    /// rules refuse, `err …` for everything else.
    pub fn reply(&self) -> String {
        match self {
            ProtocolError::Rules(e) if e.is_invalid_move() => format!("invalidmove {self}"),
            _ => format!("err {self}"),
        }
    }
}

/// Parses a 32-bit integer as .NET's `int.Parse` does (surrounding spaces and a sign allowed).
pub fn parse_int(text: &str) -> Result<i32, ProtocolError> {
    let t = text.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ProtocolError::NotANumber(text.to_string()));
    }
    t.parse::<i32>().map_err(|_| ProtocolError::NumberOverflow)
}

/// Parses a duration written as .NET's `TimeSpan.Parse` reads it: `[d.]hh:mm[:ss[.fffffff]]`,
/// or a whole number of days.
pub fn parse_time(text: &str) -> Result<std::time::Duration, ProtocolError> {
    let bad = || ProtocolError::BadTime(text.to_string());
    let t = text.trim();
    let number = |s: &str, max: u64| -> Result<u64, ProtocolError> {
        if s.is_empty() || s.len() > 8 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let v: u64 = s.parse().map_err(|_| bad())?;
        if v > max {
            return Err(bad());
        }
        Ok(v)
    };
    const DAY: u64 = 86_400;
    if !t.contains(':') {
        return Ok(std::time::Duration::from_secs(number(t, 10_675_199)? * DAY));
    }
    let (days, clock) = match t.split_once('.') {
        Some((d, rest)) if !d.contains(':') => (number(d, 10_675_199)?, rest),
        _ => (0, t),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return Err(bad());
    }
    let hours = number(parts[0], 23)?;
    let minutes = number(parts[1], 59)?;
    let (seconds, nanos) = match parts.get(2) {
        None => (0, 0),
        Some(s) => match s.split_once('.') {
            None => (number(s, 59)?, 0),
            Some((whole, fraction)) => {
                if fraction.is_empty() || fraction.len() > 7 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(bad());
                }
                let scaled = format!("{fraction:0<9}");
                (number(whole, 59)?, scaled.parse::<u32>().map_err(|_| bad())?)
            }
        },
    };
    let secs = days * DAY + hours * 3600 + minutes * 60 + seconds;
    Ok(std::time::Duration::new(secs, nanos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn ints_like_dotnet() {
        assert_eq!(parse_int(" 42 "), Ok(42));
        assert_eq!(parse_int("-3"), Ok(-3));
        assert_eq!(parse_int("x"), Err(ProtocolError::NotANumber("x".into())));
        assert_eq!(parse_int("99999999999"), Err(ProtocolError::NumberOverflow));
        assert_eq!(parse_int("1.5"), Err(ProtocolError::NotANumber("1.5".into())));
    }

    #[test]
    fn times_like_dotnet() {
        assert_eq!(parse_time("00:00:05"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_time("0:0:1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_time("00:00:00.25"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_time("01:02"), Ok(Duration::from_secs(3720)));
        assert_eq!(parse_time("1.00:00:01"), Ok(Duration::from_secs(86_401)));
        assert_eq!(parse_time("2"), Ok(Duration::from_secs(2 * 86_400)));
        for bad in ["x", "00:60:00", "24:00:00", "00:00:5x", "", "::", "1:2:3:4", "-00:00:01"] {
            assert_eq!(parse_time(bad), Err(ProtocolError::BadTime(bad.into())), "{bad}");
        }
    }
}
