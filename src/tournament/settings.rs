//! The `KEY=VALUE` settings of `--engine`, `--each` and `--sprt`, read into an engine
//! configuration and an SPRT: every setting is checked on its own, then the whole.

use super::error::{SettingError, SetupError, SprtSettingError};
use super::stats::Sprt;
use crate::client::{split_words, EngineConfig, Limit, Sync, TimeCommand};
use std::path::PathBuf;
use std::time::Duration;

/// Splits `cmd=` or `args=` into words as a POSIX shell does ([`crate::client::split_words`]).
fn words(text: &str) -> Result<Vec<String>, SettingError> {
    split_words(text).ok_or_else(|| SettingError::UnbalancedQuote(text.to_string()))
}

/// Builds an engine from `--each` settings and its own (which win). `index` counts from 1.
pub fn engine_config(index: usize, each: &[String], own: &[String]) -> Result<EngineConfig, SetupError> {
    let read = || {
        let mut settings = EngineSettings::new();
        for list in [each, own] {
            settings.read_list(list)?;
        }
        settings.into_config()
    };
    read().map_err(|error| SetupError::Setting { index, error })
}

/// An engine's settings as they are read, before they are checked as a whole.
struct EngineSettings {
    name: Option<String>,
    command: Option<Vec<String>>,
    args: Vec<String>,
    dir: Option<PathBuf>,
    sync: Sync,
    time_command: TimeCommand,
    options: Vec<(String, String)>,
    limit: Option<Limit>,
}

impl EngineSettings {
    fn new() -> EngineSettings {
        EngineSettings {
            name: None,
            command: None,
            args: Vec::new(),
            dir: None,
            sync: Sync::NewGame,
            time_command: TimeCommand::Time,
            options: Vec::new(),
            limit: None,
        }
    }

    /// Reads one list (`--each`, or an engine's own). A later setting overrides an earlier one,
    /// except the limit: one list gives it at most once, and the engine's own list overrides
    /// `--each`.
    fn read_list(&mut self, list: &[String]) -> Result<(), SettingError> {
        let mut list_limit = None;
        for token in list {
            let Some((key, value)) = token.split_once('=') else {
                return Err(SettingError::NotKeyValue(token.clone()));
            };
            if let Some(limit) = self.read(token, key.trim(), value)? {
                if list_limit.is_some() {
                    return Err(SettingError::LimitTwice(token.clone()));
                }
                list_limit = Some(limit);
            }
        }
        self.limit = list_limit.or(self.limit);
        Ok(())
    }

    /// Reads one setting; a limit is handed back rather than kept (see [`Self::read_list`]).
    fn read(&mut self, token: &str, key: &str, value: &str) -> Result<Option<Limit>, SettingError> {
        match key {
            "name" => self.name = Some(value.trim().to_string()),
            "cmd" => self.command = Some(words(value)?),
            "args" => self.args = words(value)?,
            "dir" => self.dir = Some(PathBuf::from(value)),
            "sync" => self.sync = sync(token, value)?,
            "timecmd" => self.time_command = time_command(token, value)?,
            "depth" | "plies" => return depth(token, value).map(Some),
            "movetime" | "st" => return seconds(key, value).map(|t| Some(Limit::MoveTime(t))),
            _ => self.read_option(token, key, value)?,
        }
        Ok(None)
    }

    /// Reads `option.NAME=VALUE`: a UHP option, sent as `options set NAME VALUE`. A name given
    /// twice (in any case) keeps the later value.
    fn read_option(&mut self, token: &str, key: &str, value: &str) -> Result<(), SettingError> {
        let Some(option) = key.strip_prefix("option.").filter(|o| !o.is_empty()) else {
            return Err(SettingError::UnknownSetting(key.to_string()));
        };
        // One command line carries both, so neither may hold a line break or split in two.
        if value.contains(['\n', '\r']) || option.contains(char::is_whitespace) {
            return Err(SettingError::NotAWord(token.to_string()));
        }
        self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(option));
        self.options.push((option.to_string(), value.trim().to_string()));
        Ok(())
    }

    /// Checks the settings as a whole: a command, a limit, a name the game files can hold.
    fn into_config(self) -> Result<EngineConfig, SettingError> {
        let mut words = self.command.ok_or(SettingError::NoCommand)?;
        if words.is_empty() {
            return Err(SettingError::EmptyCommand);
        }
        let program = words.remove(0);
        words.extend(self.args);
        let limit = self.limit.ok_or(SettingError::NoLimit)?;
        let name = self.name.unwrap_or_default();
        if name.contains(['\n', '\r', '"']) {
            return Err(SettingError::BadName(name));
        }
        let (dir, options, sync, time_command) = (self.dir, self.options, self.sync, self.time_command);
        Ok(EngineConfig { name, program, args: words, dir, options, limit, sync, time_command })
    }
}

fn sync(token: &str, value: &str) -> Result<Sync, SettingError> {
    match value.trim() {
        "newgame" => Ok(Sync::NewGame),
        "play" => Ok(Sync::Play),
        _ => Err(SettingError::BadSync(token.to_string())),
    }
}

fn time_command(token: &str, value: &str) -> Result<TimeCommand, SettingError> {
    match value.trim() {
        "time" => Ok(TimeCommand::Time),
        "seconds" => Ok(TimeCommand::Seconds),
        _ => Err(SettingError::BadTimeCommand(token.to_string())),
    }
}

fn depth(token: &str, value: &str) -> Result<Limit, SettingError> {
    value.trim().parse::<u32>().map(Limit::Depth).map_err(|_| SettingError::BadDepth(token.to_string()))
}

/// A positive number of seconds, to the millisecond (at least one).
fn seconds(key: &str, value: &str) -> Result<Duration, SettingError> {
    match value.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e9 => Ok(Duration::from_millis(((s * 1000.0).round() as u64).max(1))),
        _ => Err(SettingError::BadSeconds { key: key.to_string(), value: value.to_string() }),
    }
}

/// The SPRT from `--sprt` settings.
pub fn sprt_from(settings: &[String]) -> Result<Sprt, SprtSettingError> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for token in settings {
        let (key, value) = token.split_once('=').ok_or_else(|| SprtSettingError::NotKeyValue(token.clone()))?;
        let v: f64 = value.trim().parse().map_err(|_| SprtSettingError::NotNumber(token.clone()))?;
        match key.trim() {
            "elo0" => elo0 = Some(v),
            "elo1" => elo1 = Some(v),
            "alpha" => alpha = v,
            "beta" => beta = v,
            k => return Err(SprtSettingError::Unknown(k.to_string())),
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(SprtSettingError::MissingElo);
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(SprtSettingError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn words_split_as_a_shell_splits_them() {
        assert_eq!(words("comb --option 'A=b c'  x").unwrap(), ["comb", "--option", "A=b c", "x"]);
        assert_eq!(words("\"/opt/my engine\" \"\"").unwrap(), ["/opt/my engine", ""]);
        let escaped = r#"my\ engine "say \"hi\" \x" 'c:\dir' # a comment"#;
        assert_eq!(words(escaped).unwrap(), ["my engine", "say \"hi\" \\x", "c:\\dir"]);
        for bad in ["a 'b", "a \"b", "a\\"] {
            assert_eq!(words(bad), Err(SettingError::UnbalancedQuote(bad.into())), "{bad}");
        }
    }

    #[test]
    fn engine_settings_merge_with_each() {
        let each = tokens(&["depth=2", "option.MaxHelperThreads=None", "option.TranspositionTableSizeMB=8"]);
        let own =
            tokens(&["name=A", "cmd=comb --option X=1", "args=--quiet", "option.maxhelperthreads=0", "movetime=0.5"]);
        let c = engine_config(1, &each, &own).unwrap();
        assert_eq!(c.name, "A");
        assert_eq!(c.program, "comb");
        assert_eq!(c.args, ["--option", "X=1", "--quiet"]);
        assert_eq!(
            c.options,
            [
                ("TranspositionTableSizeMB".to_string(), "8".to_string()),
                ("maxhelperthreads".to_string(), "0".to_string())
            ]
        );
        assert_eq!(c.limit, Limit::MoveTime(Duration::from_millis(500)));
        assert_eq!(c.sync, Sync::NewGame);
        let c = engine_config(2, &each, &tokens(&["cmd=x", "sync=play"])).unwrap();
        assert_eq!((c.limit, c.sync), (Limit::Depth(2), Sync::Play));
    }

    #[test]
    fn bad_engine_settings_are_explained() {
        let err = |own: &[&str]| engine_config(3, &[], &tokens(own)).unwrap_err().to_string();
        assert!(err(&["name=A", "depth=1"]).contains("engine 3: no cmd"));
        assert!(err(&["cmd=x"]).contains("no limit"));
        assert!(err(&["cmd=x", "depth=1", "movetime=1"]).contains("either depth= or movetime="));
        assert!(err(&["cmd=x", "depth=deep"]).contains("expected a depth"));
        assert!(err(&["cmd=x", "movetime=-1"]).contains("positive number"));
        assert!(err(&["cmd=x", "depth=1", "colour=red"]).contains("unknown setting `colour`"));
        assert!(err(&["cmd=x", "depth=1", "option.=1"]).contains("unknown setting"));
        assert!(err(&["cmd=x", "depth=1", "justaword"]).contains("expected KEY=VALUE"));
        assert!(err(&["cmd=", "depth=1"]).contains("empty"));
        assert!(err(&["cmd=x", "depth=1", "sync=sometimes"]).contains("sync=newgame or sync=play"));
    }

    #[test]
    fn settings_errors_keep_the_offending_token() {
        let err = |own: &[&str]| match engine_config(1, &[], &tokens(own)) {
            Err(SetupError::Setting { index: 1, error }) => error,
            other => panic!("{other:?}"),
        };
        assert_eq!(err(&["cmd=x", "depth=1", "st=2"]), SettingError::LimitTwice("st=2".into()));
        assert_eq!(err(&["cmd='x", "depth=1"]), SettingError::UnbalancedQuote("'x".into()));
        assert_eq!(err(&["cmd=x", "depth=1", "option.A B=1"]), SettingError::NotAWord("option.A B=1".into()));
        assert_eq!(err(&["cmd=x", "depth=1", "name=a\"b"]), SettingError::BadName("a\"b".into()));
        // --each and the engine's own list may each give a limit: the engine's wins.
        let c = engine_config(1, &tokens(&["depth=3"]), &tokens(&["cmd=x", "st=1"])).unwrap();
        assert_eq!(c.limit, Limit::MoveTime(Duration::from_secs(1)));
    }

    #[test]
    fn sprt_settings() {
        let s = sprt_from(&tokens(&["elo0=0", "elo1=5"])).unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        let s = sprt_from(&tokens(&["elo0=-5", "elo1=0", "alpha=0.1", "beta=0.2"])).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 0.0, 0.1, 0.2));
        assert!(sprt_from(&tokens(&["elo0=0"])).is_err());
        assert!(sprt_from(&tokens(&["elo0=5", "elo1=0"])).is_err());
        assert!(sprt_from(&tokens(&["elo0=0", "elo1=5", "gamma=1"])).is_err());
    }
}
