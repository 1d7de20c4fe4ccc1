//! One UHP session: parses each line into a command, runs it, writes the reply ending in `ok`.

use super::analysis;
use super::error::{parse_int, parse_time, ProtocolError};
use super::options::Options;
use super::Signals;
use crate::games::AnyGame;
use crate::search::tt::TableTooLarge;
use crate::search::{Limits, Searcher};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Whether the loop goes on after a command.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `exit`: stop without further output.
    Exit,
}

/// A parsed command line.
#[derive(Clone, Debug, PartialEq)]
enum Command {
    Info,
    Help(Option<String>),
    NewGame(Option<String>),
    Play(String),
    Pass,
    ValidMoves,
    BestMove(Limits),
    Undo(i32),
    Options,
    OptionsGet(String),
    OptionsSet(String, String),
    Perft(Option<i32>),
    Sip,
    Board,
    Exit,
}

/// The longest search depth a command may ask for.
const MAX_DEPTH: i32 = crate::search::MAX_PLY as i32;

fn parse_command(line: &str) -> Result<Command, ProtocolError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else { return Err(ProtocolError::InvalidCommand) };
    let args = &words[1..];
    let rest = || args.join(" ");
    Ok(match first.to_ascii_lowercase().as_str() {
        "info" => Command::Info,
        "help" | "?" => Command::Help(args.first().map(|s| s.to_string())),
        "newgame" => Command::NewGame((!args.is_empty()).then(rest)),
        "play" if !args.is_empty() => Command::Play(rest()),
        "pass" => Command::Pass,
        "validmoves" => Command::ValidMoves,
        "bestmove" => Command::BestMove(parse_limits(args)?),
        "undo" => Command::Undo(match args.first() {
            None => 1,
            Some(n) => parse_int(n)?,
        }),
        "options" => match (args.first().map(|a| a.to_ascii_lowercase()), args.len()) {
            (None, _) => Command::Options,
            (Some(get), n) if get == "get" && n >= 2 => Command::OptionsGet(args[1].to_string()),
            (Some(set), n) if set == "set" && n >= 3 => Command::OptionsSet(args[1].to_string(), args[2].to_string()),
            _ => return Err(ProtocolError::InvalidCommand),
        },
        "perft" => Command::Perft(args.first().map(|n| parse_int(n)).transpose()?),
        "sip" => Command::Sip,
        "board" => Command::Board,
        "exit" => Command::Exit,
        _ => return Err(ProtocolError::InvalidCommand),
    })
}

/// `bestmove` arguments: none (until stopped), `depth N`, `time hh:mm:ss`, and nokamute's
/// `seconds S` and `depthorseconds N S`.
fn parse_limits(args: &[&str]) -> Result<Limits, ProtocolError> {
    let seconds = |s: &str| -> Result<Duration, ProtocolError> {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e9)
            .map(Duration::from_secs_f64)
            .ok_or_else(|| ProtocolError::BadTime(s.to_string()))
    };
    // Depths beyond the deepest are clamped to it; below 1 there is nothing to search.
    let depth = |s: &str| -> Result<u32, ProtocolError> {
        match parse_int(s)? {
            d if d < 1 => Err(ProtocolError::SearchDepth(d as i64)),
            d => Ok(d.min(MAX_DEPTH) as u32),
        }
    };
    match args.first().map(|a| a.to_ascii_lowercase()) {
        None => Ok(Limits::default()),
        Some(kind) if args.len() >= 2 => match kind.as_str() {
            "depth" => Ok(Limits::depth(depth(args[1])?)),
            "time" => Ok(Limits::time(parse_time(args[1])?)),
            "seconds" => Ok(Limits::time(seconds(args[1])?)),
            "depthorseconds" if args.len() >= 3 => {
                Ok(Limits { depth: Some(depth(args[1])?), time: Some(seconds(args[2])?), nodes: None })
            }
            _ => Err(ProtocolError::InvalidCommand),
        },
        Some(_) => Err(ProtocolError::InvalidCommand),
    }
}

const HELP: &str = "Game commands:
  newgame [GameTypeString|GameString]   start a game (default Base) or load one;
                                       Intellector: newgame Intellector[<SIP>] for a custom start
  play MoveString                      play a move
  pass                                 pass (only when nothing else is legal)
  validmoves                           list the legal moves
  bestmove [depth N|time hh:mm:ss]     search for the best move (no limit: until interrupted)
  undo [N]                             take back the last N moves (default 1)

Engine commands:
  info                                 engine name and capabilities
  help [Command]                       this list
  options [get Name|set Name Value]    list, read or change options
  exit                                 quit

Advanced commands:
  perft [N]                            leaf counts for depths 1..N from the current position
  sip                                  the current Intellector position as a SIP v2 string
  board                                the current position as text (board, hands, state)
  bestmove seconds S                   search for S seconds (fractions allowed)
  bestmove depthorseconds N S          stop at depth N or after S seconds

Try 'help Command' to see help for a particular Command.";

fn help_for(command: &str) -> Option<&'static str> {
    Some(match command.to_ascii_lowercase().as_str() {
        "info" => "  info\n\n  Displays the identifier string of the engine and list of its capabilities.",
        "help" | "?" => "  help [Command]\n\n  Displays the list of available commands, or the help for one Command.",
        "newgame" => "  newgame [GameTypeString|GameString]\n\n  Starts a new Base game, a game of the given type, or loads the given GameString (its state and turn are recomputed).",
        "play" => "  play MoveString\n\n  Plays the specified MoveString in the current game.",
        "pass" => "  pass\n\n  Plays a passing move; legal only when no other move is.",
        "validmoves" => "  validmoves\n\n  Displays every valid move in the current game, separated by ';'.",
        "bestmove" => "  bestmove\n  bestmove depth MaxDepth\n  bestmove time MaxTime\n  bestmove seconds Seconds\n  bestmove depthorseconds MaxDepth Seconds\n\n  Searches for the best move. 'time' takes hh:mm:ss; with no limit the search runs until interrupted (Ctrl+C, exit or end of input).",
        "undo" => "  undo [MovesToUndo]\n\n  Undoes the last move, or MovesToUndo moves.",
        "options" => "  options\n  options get OptionName\n  options set OptionName OptionValue\n\n  Lists the options, or reads or changes one.",
        "perft" => "  perft [MaxDepth]\n\n  Prints 'depth: leaves' for each depth from 1 to MaxDepth (until interrupted if omitted).",
        "sip" => "  sip\n\n  Prints the current Intellector position as an intellector.info position string (SIP v2).",
        "board" => "  board\n\n  Prints the current position as text: game, state, turn, side to move, last move, pieces in hand and the board.",
        "exit" => "  exit\n\n  Exits the engine.",
        _ => return None,
    })
}

/// A UHP session: the current game, the search engine and the options.
pub struct Session<W: Write> {
    out: W,
    game: Option<AnyGame>,
    engine: Searcher,
    options: Options,
    signals: Arc<Signals>,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`, with the given option values (the table size as far as the
    /// machine provides it).
    pub fn new(out: W, mut options: Options, signals: Arc<Signals>) -> Session<W> {
        let mut engine = Searcher::new(options.table_megabytes, options.threads());
        options.table_megabytes = engine.table_megabytes();
        options.configure(&mut engine);
        Session { out, game: None, engine, options, signals }
    }

    /// Makes the engine's table resident in the background (see
    /// [`Searcher::make_table_resident`]).
    pub fn make_table_resident(&mut self) {
        self.engine.make_table_resident();
    }

    fn line(&mut self, text: &str) {
        // A closed output has nobody to tell; the loop ends at the next read.
        let _ = writeln!(self.out, "{text}");
    }

    fn finish(&mut self) {
        self.line("ok");
        let _ = self.out.flush();
    }

    /// The output written so far (tests drive a session in memory through this).
    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The current GameString, if a game is loaded.
    pub fn game_string(&self) -> Option<String> {
        self.game.as_ref().map(|g| g.game_string())
    }

    /// The identification block the engine prints at start-up, as `info` does.
    pub fn info(&mut self) {
        self.identify();
        self.finish();
    }

    /// The `id` line and the expansions comb plays.
    fn identify(&mut self) {
        self.line(&format!("id comb {}", env!("CARGO_PKG_VERSION")));
        self.line("Mosquito;Ladybug;Pillbug");
    }

    /// Runs one input line and writes its reply. Blank lines are ignored.
    pub fn execute(&mut self, line: &str) -> Flow {
        if line.trim().is_empty() {
            return Flow::Continue;
        }
        // The game is restored if the command panics, so a bug costs one command, not the session.
        let snapshot = self.game.clone();
        let result = catch_unwind(AssertUnwindSafe(|| self.run(line))).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown".to_string());
            log::error!("command {line:?} panicked: {what}");
            self.game = snapshot;
            *self.signals.running() = None;
            self.signals.busy.store(false, SeqCst);
            Err(ProtocolError::Internal(what))
        });
        match result {
            Ok(Flow::Exit) => return Flow::Exit,
            Ok(Flow::Continue) => {}
            Err(e) => self.line(&e.reply()),
        }
        self.finish();
        Flow::Continue
    }

    /// Reports an input line that was too long to read.
    pub fn reject_long_line(&mut self, bytes: usize) {
        self.line(&ProtocolError::LineTooLong(bytes).reply());
        self.finish();
    }

    fn game(&mut self) -> Result<&mut AnyGame, ProtocolError> {
        self.game.as_mut().ok_or(ProtocolError::NoGame)
    }

    fn game_in_progress(&mut self) -> Result<&mut AnyGame, ProtocolError> {
        let game = self.game()?;
        if game.is_over() {
            return Err(crate::error::RulesError::GameOver.into());
        }
        Ok(game)
    }

    fn print_game_string(&mut self) -> Result<Flow, ProtocolError> {
        let s = self.game()?.game_string();
        self.line(&s);
        Ok(Flow::Continue)
    }

    fn run(&mut self, line: &str) -> Result<Flow, ProtocolError> {
        match parse_command(line)? {
            Command::Info => self.identify(),
            Command::Help(None) => {
                for l in HELP.lines() {
                    self.line(l);
                }
            }
            Command::Help(Some(c)) => {
                for l in help_for(&c).ok_or(ProtocolError::InvalidCommand)?.lines() {
                    self.line(l);
                }
            }
            Command::NewGame(arg) => {
                // The whole argument is the game type or the GameString: more after a type
                // makes it a GameString that does not parse, rather than being dropped.
                let text = arg.as_deref().unwrap_or("Base");
                self.game = Some(self.options.game.start(text)?);
                self.engine.new_game();
                return self.print_game_string();
            }
            Command::Play(text) => {
                self.game_in_progress()?.play(&text)?;
                return self.print_game_string();
            }
            Command::Pass => {
                self.game_in_progress()?.play("pass")?;
                return self.print_game_string();
            }
            Command::ValidMoves => {
                let moves = self.game_in_progress()?.valid_moves();
                self.line(&moves);
            }
            Command::BestMove(limits) => {
                self.game_in_progress()?;
                let mv = self.search(limits);
                if let Some(mv) = mv {
                    self.line(&mv);
                }
            }
            Command::Undo(n) => {
                let game = self.game()?;
                if n < 1 || n as usize > game.plies() {
                    return Err(ProtocolError::UndoCount(n as i64));
                }
                game.undo(n as usize);
                return self.print_game_string();
            }
            Command::Options => {
                for name in Options::NAMES {
                    let l = self.options.line(name)?;
                    self.line(&l);
                }
            }
            Command::OptionsGet(name) => {
                let l = self.options.line(&name)?;
                self.line(&l);
            }
            Command::OptionsSet(name, value) => {
                self.set_option(&name, &value)?;
                let l = self.options.line(&name)?;
                self.line(&l);
            }
            Command::Perft(depth) => self.perft(depth)?,
            Command::Sip => {
                let sip =
                    self.game()?.sip().ok_or(ProtocolError::WrongGame("The sip command is for Intellector games."))?;
                self.line(&sip);
            }
            Command::Board => {
                let text = crate::show::text(self.game()?);
                for l in text.lines() {
                    self.line(l);
                }
            }
            Command::Exit => return Ok(Flow::Exit),
        }
        Ok(Flow::Continue)
    }

    /// Changes an option and applies it to the engine and the current game.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), ProtocolError> {
        self.options.set(name, value)?;
        self.options.configure(&mut self.engine);
        if let Err(TableTooLarge(megabytes)) = self.engine.set_table_megabytes(self.options.table_megabytes) {
            self.options.table_megabytes = self.engine.table_megabytes();
            return Err(ProtocolError::TableSize(megabytes));
        }
        let game_options = self.options.game;
        if let Some(g) = self.game.as_mut() {
            g.apply(game_options);
        }
        Ok(())
    }

    /// Marks a long-running command as started: clears an old interrupt, and stops at once if an
    /// `exit` that stops commands has come, or for a command with no limit of its own, if `exit`
    /// or the end of input has come.
    fn begin_interruptible(&self, unbounded: bool) {
        let s = &self.signals;
        {
            // Under the lock the end-of-input bound stops commands with (see `Signals::running`).
            let mut running = s.running();
            s.stop.store(false, SeqCst);
            *running = Some(Instant::now());
        }
        s.unbounded.store(unbounded, SeqCst);
        s.busy.store(true, SeqCst);
        if s.exit_stops.load(SeqCst) || (unbounded && (s.exit.load(SeqCst) || s.eof.load(SeqCst))) {
            s.stop.store(true, SeqCst);
        }
    }

    fn end_interruptible(&self) {
        *self.signals.running() = None;
        self.signals.busy.store(false, SeqCst);
        self.signals.unbounded.store(false, SeqCst);
    }

    fn search(&mut self, limits: Limits) -> Option<String> {
        self.begin_interruptible(limits.is_infinite());
        let report_on = self.options.report_intermediate;
        let game = self.game.as_ref().expect("checked by the caller");
        let out = &mut self.out;
        let mut report = |line: String| {
            if report_on {
                let _ = writeln!(out, "{line}");
                let _ = out.flush();
            }
        };
        let started = Instant::now();
        let mv = analysis::search(game, &mut self.engine, limits, &self.signals.stop, &mut report).map(|r| r.best);
        log::info!("bestmove {:?} in {:?}", mv, started.elapsed());
        self.end_interruptible();
        mv
    }

    fn perft(&mut self, depth: Option<i32>) -> Result<(), ProtocolError> {
        if let Some(d) = depth {
            if d < 0 {
                return Err(ProtocolError::PerftDepth(d as i64));
            }
        }
        let game = self.game()?.clone();
        self.begin_interruptible(depth.is_none());
        let max = depth.map_or(usize::MAX, |d| d as usize);
        // Depth 1 is never stopped, so that even a perft stopped at once answers a count.
        let never = AtomicBool::new(false);
        let mut d = 1;
        while d <= max && d <= crate::search::MAX_PLY {
            let start = Instant::now();
            let stop = if d == 1 { &never } else { &self.signals.stop };
            let Some(n) = analysis::perft(&game, d, stop) else { break };
            let secs = start.elapsed().as_secs_f64();
            self.line(&analysis::perft_line(d, n, secs));
            let _ = self.out.flush();
            d += 1;
        }
        self.end_interruptible();
        if self.signals.stop.load(Relaxed) {
            log::info!("perft interrupted");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse() {
        assert_eq!(parse_command("INFO"), Ok(Command::Info));
        assert_eq!(parse_command("play  wS1   -bQ"), Ok(Command::Play("wS1 -bQ".into())));
        assert_eq!(parse_command("play"), Err(ProtocolError::InvalidCommand));
        assert_eq!(parse_command("bestmove depth 3"), Ok(Command::BestMove(Limits::depth(3))));
        assert_eq!(parse_command("bestmove depth 99999"), Ok(Command::BestMove(Limits::depth(MAX_DEPTH as u32))));
        assert_eq!(parse_command("bestmove depth 0"), Err(ProtocolError::SearchDepth(0)));
        assert_eq!(parse_command("bestmove depthorseconds -1 5"), Err(ProtocolError::SearchDepth(-1)));
        assert_eq!(parse_command("bestmove foo"), Err(ProtocolError::InvalidCommand));
        assert_eq!(parse_command("bestmove depth x"), Err(ProtocolError::NotANumber("x".into())));
        assert_eq!(parse_command("undo 99999999999"), Err(ProtocolError::NumberOverflow));
        assert_eq!(parse_command("options get"), Err(ProtocolError::InvalidCommand));
        assert_eq!(parse_command("options set A"), Err(ProtocolError::InvalidCommand));
    }
}
