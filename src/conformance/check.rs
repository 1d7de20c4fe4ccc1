//! Running one case against the engine: its set-up, its command, and the comparison of the
//! reply with what the case expects.

use super::cases::{Builtin, Case, Expect, Setup};
use super::moves::{compare, key_of, same_game, split_moves};
use super::EngineUnderTest;
use crate::client::EngineError;

/// What a case found: `Ok` when the reply is as expected, else the difference in words.
pub type Verdict = Result<(), String>;

/// Quotes a reply for a message: its lines joined by ` | `, or `nothing`.
pub fn quote(reply: &[String]) -> String {
    if reply.is_empty() {
        "nothing".to_string()
    } else {
        format!("`{}`", reply.join(" | "))
    }
}

/// Whether a line is an error reply.
pub fn is_error(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("err") || line.starts_with("invalidmove")
}

/// Describes a failed exchange; the session is restarted before the next case.
fn engine_failed(session: &mut EngineUnderTest, command: &str, e: EngineError) -> String {
    session.discard();
    format!("`{command}`: the engine {e}")
}

/// Runs `case`: set-up, command, comparison.
pub fn run(session: &mut EngineUnderTest, case: &Case) -> Verdict {
    if case.fresh {
        session.discard();
    }
    if let Expect::Check(Builtin::ExitOnEof) = case.expect {
        return exit_on_eof(session);
    }
    for step in &case.setup {
        let command = step.command();
        let reply = session.exchange(&command).map_err(|e| engine_failed(session, &command, e))?;
        let checked = matches!(step, Setup::NewGame(_) | Setup::Play(_));
        if checked && (reply.len() != 1 || is_error(&reply[0])) {
            return Err(format!("set-up `{command}` answered {}", quote(&reply)));
        }
    }
    let reply = session.exchange(&case.command).map_err(|e| engine_failed(session, &case.command, e))?;
    let answered = || format!("`{}` answered {}", case.command, quote(&reply));
    match &case.expect {
        Expect::Moves { piece, moves } => {
            let game = case.position.as_ref().expect("checked when the file was read");
            let [line] = reply.as_slice() else { return Err(format!("{}: expected one line of moves", answered())) };
            if is_error(line) {
                return Err(answered());
            }
            let diff = compare(game.hive(), &split_moves(line), moves, *piece);
            if diff.is_empty() {
                Ok(())
            } else {
                Err(diff.describe("the case"))
            }
        }
        Expect::OneOf(moves) => {
            let game = case.position.as_ref().expect("checked when the file was read");
            let Some(last) = reply.last().filter(|l| !is_error(l)) else { return Err(answered()) };
            let mv = last.split(';').next().unwrap_or_default().trim();
            match key_of(game.hive(), mv) {
                Some(k) if moves.iter().any(|(_, m)| *m == k) => Ok(()),
                Some(_) => Err(format!("{}: not one of the moves the case allows", answered())),
                None => Err(format!("{}: `{mv}` is not a MoveString", answered())),
            }
        }
        Expect::GameString(expected) => {
            let [line] = reply.as_slice() else { return Err(format!("{}: expected one GameString", answered())) };
            if is_error(line) {
                return Err(answered());
            }
            match same_game(expected, line) {
                None => Ok(()),
                Some(difference) => Err(difference),
            }
        }
        Expect::Lines(patterns) => {
            let matches = patterns.len() == reply.len() && patterns.iter().zip(&reply).all(|(p, l)| p.matches(l));
            if matches {
                Ok(())
            } else {
                let wanted: Vec<String> = patterns.iter().map(|p| p.to_string()).collect();
                Err(format!("{}, expected {}", answered(), quote(&wanted)))
            }
        }
        Expect::Check(Builtin::Info) => info(&reply).map_err(|e| format!("{e} (answered {})", quote(&reply))),
        Expect::Check(Builtin::Options) => options(session, &reply),
        Expect::Check(Builtin::ExitOnEof) => unreachable!("handled first"),
    }
}

/// The `info` block: `id NAME …`, then at most one capabilities line naming known expansions.
fn info(reply: &[String]) -> Result<(), String> {
    let Some(first) = reply.first() else { return Err("no `id` line".to_string()) };
    if !first.starts_with("id ") || first[3..].trim().is_empty() {
        return Err("the first line is not `id <name> …`".to_string());
    }
    match reply.len() {
        1 => Ok(()),
        2 => {
            let known = ["mosquito", "ladybug", "pillbug"];
            let mut seen = Vec::new();
            for word in reply[1].split(';').map(|w| w.trim().to_ascii_lowercase()).filter(|w| !w.is_empty()) {
                if !known.contains(&word.as_str()) || seen.contains(&word) {
                    return Err(format!("capability `{word}` is not Mosquito, Ladybug or Pillbug once each"));
                }
                seen.push(word);
            }
            Ok(())
        }
        n => Err(format!("{n} lines: `id`, then at most one capabilities line")),
    }
}

/// Checks one option line: `Name;type;value;default[;…]` with a known type and consistent
/// values.
fn option_line(line: &str) -> Result<(), String> {
    let f: Vec<&str> = line.split(';').collect();
    if f.len() < 4 || f[0].is_empty() {
        return Err(format!("`{line}` is not `Name;type;value;default[;…]`"));
    }
    let (value, default, extra) = (f[2], f[3], &f[4..]);
    match f[1] {
        "bool" => {
            let ok = |v: &str| v == "True" || v == "False";
            if !(ok(value) && ok(default) && extra.is_empty()) {
                return Err(format!("`{line}`: a bool is True or False, with nothing after"));
            }
        }
        "int" | "double" => {
            let num = |v: &str| v.parse::<f64>().ok();
            let (Some(v), Some(d), [Some(lo), Some(hi)]) =
                (num(value), num(default), [extra.first(), extra.get(1)].map(|x| x.and_then(|x| num(x))))
            else {
                return Err(format!("`{line}`: a number option is `Name;{};value;default;min;max`", f[1]));
            };
            if extra.len() != 2 || !(lo <= v && v <= hi && lo <= d && d <= hi) {
                return Err(format!("`{line}`: value and default must lie in [min, max]"));
            }
        }
        "enum" => {
            if !extra.contains(&value) || !extra.contains(&default) {
                return Err(format!("`{line}`: value and default must be among the listed values"));
            }
        }
        other => return Err(format!("`{line}`: type `{other}` is not bool, int, double or enum")),
    }
    Ok(())
}

/// The `options` block, and `options get` of its first option.
fn options(session: &mut EngineUnderTest, reply: &[String]) -> Verdict {
    for line in reply {
        option_line(line)?;
    }
    let Some(first) = reply.first() else { return Ok(()) };
    let name = first.split(';').next().unwrap_or_default();
    let command = format!("options get {name}");
    let got = session.exchange(&command).map_err(|e| engine_failed(session, &command, e))?;
    if got.as_slice() != std::slice::from_ref(first) {
        return Err(format!("`{command}` answered {}, expected `{first}`", quote(&got)));
    }
    Ok(())
}

/// End of input must end the engine within the command timeout.
fn exit_on_eof(session: &mut EngineUnderTest) -> Verdict {
    let timeout = session.timeout;
    let engine = session.engine().map_err(|e| format!("the engine {e}"))?;
    let closed = engine.close_input(timeout);
    session.discard();
    match closed.exited {
        Some(_) => Ok(()),
        None => {
            let printed = match closed.first_line {
                Some(first) => format!("; it printed {} lines meanwhile, the first `{first}`", closed.lines),
                None => String::new(),
            };
            Err(format!("still running {:.1} s after its input closed{printed}", timeout.as_secs_f64()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_checked() {
        for good in [
            "MaxHelperThreads;enum;Auto;Auto;Auto;None;1",
            "ReportIntermediateBestMoves;bool;False;False",
            "TranspositionTableSizeMB;int;32;32;0;1024",
        ] {
            assert_eq!(option_line(good), Ok(()), "{good}");
        }
        for bad in [
            "X;int;3;3",
            "X;bool;false;False",
            "X;int;9;3;1;5",
            "X;enum;A;B;A",
            "X;string;a;a",
            "X;bool",
            ";bool;True;True",
        ] {
            assert!(option_line(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn info_blocks_are_checked() {
        let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        assert_eq!(info(&s(&["id comb 0.1.0", "Mosquito;Ladybug;Pillbug"])), Ok(()));
        assert_eq!(info(&s(&["id x"])), Ok(()));
        assert!(info(&s(&["comb 0.1.0"])).is_err());
        assert!(info(&s(&["id x", "Mosquito;Beetle"])).is_err());
        assert!(info(&s(&["id x", "Mosquito", "more"])).is_err());
    }
}
