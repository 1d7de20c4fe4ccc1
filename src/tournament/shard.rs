//! Deterministic shards: `--shard K/N` plays the K-th of N disjoint parts of the schedule that
//! the same command without it would play, with the same seed, openings, pairings and game
//! numbers. A part is a set of *pairs* (pair index % N == K − 1), so the two colour-swapped games
//! of an opening stay together and the pentanomial counts of a shard are over complete pairs.
//!
//! Without `--shard`, the shard is read from the scheduler that started the process: a Slurm job
//! array (`SLURM_ARRAY_TASK_ID`, `_MIN`, `_MAX`, `_STEP` and `_COUNT`) or a
//! Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`, with the count from `--shard-count`).

use super::error::ShardError;
use super::schedule::GameSpec;
use std::fmt;

/// The K-th of N parts of a schedule, K from 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1 to `count`.
    pub index: usize,
    /// How many parts.
    pub count: usize,
}

impl Shard {
    /// The shard, or why `index` and `count` make none.
    pub fn new(index: usize, count: usize) -> Result<Shard, ShardError> {
        if count == 0 || index == 0 || index > count {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard { index, count })
    }

    /// Reads `K/N`, as `--shard` takes it.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError::NotKOfN(text.to_string());
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        Shard::new(k, n)
    }

    /// Whether item `n` (from 0) is this shard's: a pair of a tournament's full schedule, or a
    /// game of self-play.
    pub fn keeps(&self, n: usize) -> bool {
        n % self.count == self.index - 1
    }

    /// This shard's games of the full schedule `games`, in schedule order, numbers unchanged.
    pub fn select(&self, games: Vec<GameSpec>) -> Vec<GameSpec> {
        games.into_iter().filter(|g| self.keeps(g.pair)).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A shard and where it came from, for the set-up block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The shard.
    pub shard: Shard,
    /// `--shard`, `SLURM_ARRAY_TASK_ID` or `JOB_COMPLETION_INDEX`.
    pub source: &'static str,
}

/// The shard this run plays: `--shard` if given, else a Slurm array task, else a Kubernetes
/// Indexed Job's index with `--shard-count`; `None` for the whole schedule. `env` reads an
/// environment variable (the process's own in the runner, a table in tests).
pub fn resolve(
    shard: Option<&str>,
    shard_count: Option<usize>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<Placement>, ShardError> {
    if let Some(text) = shard {
        if shard_count.is_some() {
            return Err(ShardError::CountWithShard);
        }
        return Ok(Some(Placement { shard: Shard::parse(text)?, source: "--shard" }));
    }
    if let Some(placement) = slurm(&env, shard_count)? {
        return Ok(Some(placement));
    }
    kubernetes(&env, shard_count)
}

/// A number from environment variable `name`, if it is set.
fn env_number(env: &impl Fn(&str) -> Option<String>, name: &'static str) -> Result<Option<usize>, ShardError> {
    let Some(value) = env(name) else { return Ok(None) };
    value.trim().parse().map(Some).map_err(|_| ShardError::BadVariable { name, value })
}

/// A Slurm job array task: shard `(ID − MIN) / STEP + 1` of `COUNT`, so that `--array=0-3`,
/// `1-4` and `0-6:2` alike give shards 1 to 4. An array given as a list of IDs (`1,5,9`) is
/// refused in every task, the first included: its `COUNT` tasks from `MIN` in steps of `STEP`
/// do not end at `MAX` (Slurm gives a list the step 1), so the IDs are not the shards'.
fn slurm(env: &impl Fn(&str) -> Option<String>, shard_count: Option<usize>) -> Result<Option<Placement>, ShardError> {
    let Some(id) = env_number(env, "SLURM_ARRAY_TASK_ID")? else { return Ok(None) };
    let min = env_number(env, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let step = env_number(env, "SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
    let count = env_number(env, "SLURM_ARRAY_TASK_COUNT")?.ok_or(ShardError::Missing("SLURM_ARRAY_TASK_COUNT"))?;
    // Slurm always sets MAX; without it (a hand-made environment) a range is taken on trust.
    if let Some(max) = env_number(env, "SLURM_ARRAY_TASK_MAX")? {
        let last = count.checked_sub(1).and_then(|n| n.checked_mul(step)).and_then(|n| n.checked_add(min));
        if last != Some(max) {
            return Err(ShardError::ListArray { min, max, step, count });
        }
    }
    if let Some(given) = shard_count.filter(|&n| n != count) {
        return Err(ShardError::CountDisagrees { given, count });
    }
    let offset = id.checked_sub(min).filter(|o| o % step == 0).ok_or(ShardError::OffTheArray { id, min, step })?;
    Ok(Some(Placement { shard: Shard::new(offset / step + 1, count)?, source: "SLURM_ARRAY_TASK_ID" }))
}

/// A Kubernetes Indexed Job: shard `JOB_COMPLETION_INDEX + 1` of `--shard-count` (the Job's
/// `completions`, which the pod is not told).
fn kubernetes(
    env: &impl Fn(&str) -> Option<String>,
    shard_count: Option<usize>,
) -> Result<Option<Placement>, ShardError> {
    let index = env_number(env, "JOB_COMPLETION_INDEX")?;
    match (index, shard_count) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(ShardError::CountWithoutIndex),
        (Some(_), None) => Err(ShardError::Missing("--shard-count")),
        (Some(index), Some(count)) => {
            Ok(Some(Placement { shard: Shard::new(index + 1, count)?, source: "JOB_COMPLETION_INDEX" }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::schedule::{pairings, schedule, Mode};
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    fn shard_of(shard: Option<&str>, count: Option<usize>, vars: &[(&str, &str)]) -> Result<Option<String>, String> {
        resolve(shard, count, env(vars))
            .map(|p| p.map(|p| format!("{} {}", p.shard, p.source)))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn shards_split_the_schedule_into_disjoint_whole_pairs() {
        let full = schedule(&pairings(3, Mode::RoundRobin), 3, None);
        let parts: Vec<Vec<GameSpec>> = (1..=4).map(|k| Shard::new(k, 4).unwrap().select(full.clone())).collect();
        let mut numbers: Vec<usize> = parts.iter().flatten().map(|g| g.number).collect();
        numbers.sort();
        assert_eq!(numbers, (1..=full.len()).collect::<Vec<_>>(), "every game once");
        for part in &parts {
            for pair in part.chunks(2) {
                assert_eq!(pair[0].pair, pair[1].pair, "a pair stays in one shard");
                assert_eq!(full[pair[0].number - 1], pair[0], "games are those of the full schedule");
            }
        }
        assert_eq!(parts[0].iter().map(|g| g.pair).collect::<Vec<_>>(), [0, 0, 4, 4, 8, 8]);
    }

    #[test]
    fn shards_are_read_from_the_option_or_the_scheduler() {
        assert_eq!(shard_of(None, None, &[]), Ok(None));
        assert_eq!(shard_of(Some("2/3"), None, &[]), Ok(Some("2/3 --shard".into())));
        let slurm = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "4"), ("SLURM_ARRAY_TASK_COUNT", "3")];
        assert_eq!(shard_of(None, None, &slurm), Ok(Some("2/3 SLURM_ARRAY_TASK_ID".into())));
        assert_eq!(shard_of(Some("1/2"), None, &slurm), Ok(Some("1/2 --shard".into())), "--shard wins");
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(shard_of(None, None, &stepped), Ok(Some("3/4 SLURM_ARRAY_TASK_ID".into())));
        let k8s = [("JOB_COMPLETION_INDEX", "0")];
        assert_eq!(shard_of(None, Some(4), &k8s), Ok(Some("1/4 JOB_COMPLETION_INDEX".into())));
    }

    #[test]
    fn every_task_of_a_list_array_is_refused() {
        // `sbatch --array=1,5,9`: what Slurm sets in each of its three tasks.
        for id in ["1", "5", "9"] {
            let vars = [
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_MAX", "9"),
                ("SLURM_ARRAY_TASK_STEP", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
            ];
            assert_eq!(
                shard_of(None, None, &vars),
                Err("a Slurm list array (IDs such as --array=1,5,9) cannot be sharded: SLURM_ARRAY_TASK_COUNT=3 tasks from \
                     SLURM_ARRAY_TASK_MIN=1 in steps of SLURM_ARRAY_TASK_STEP=1 do not end at SLURM_ARRAY_TASK_MAX=9; \
                     give the array as a range (--array=0-2 or 0-6:2)"
                    .to_string()),
                "task {id}"
            );
        }
        // Ranges, with and without a step, fit: `--array=1-3`, `--array=0-6:2`.
        for (id, min, max, step, shard) in [("2", "1", "3", "1", "2/3"), ("6", "0", "6", "2", "4/4")] {
            let count = if step == "1" { "3" } else { "4" };
            let vars = [
                ("SLURM_ARRAY_TASK_ID", id),
                ("SLURM_ARRAY_TASK_MIN", min),
                ("SLURM_ARRAY_TASK_MAX", max),
                ("SLURM_ARRAY_TASK_STEP", step),
                ("SLURM_ARRAY_TASK_COUNT", count),
            ];
            assert_eq!(shard_of(None, None, &vars), Ok(Some(format!("{shard} SLURM_ARRAY_TASK_ID"))));
        }
    }

    #[test]
    fn bad_shards_are_explained() {
        let err = |shard, count, vars: &[(&str, &str)]| shard_of(shard, count, vars).unwrap_err();
        assert!(err(Some("3/2"), None, &[]).contains("shard 3 of 2"));
        assert!(err(Some("0/2"), None, &[]).contains("shard 0 of 2"));
        assert!(err(Some("two"), None, &[]).contains("expected K/N"));
        assert!(err(Some("1/2"), Some(2), &[]).contains("--shard-count"));
        assert!(err(None, None, &[("JOB_COMPLETION_INDEX", "1")]).contains("--shard-count"));
        assert!(err(None, Some(2), &[]).contains("JOB_COMPLETION_INDEX"));
        assert!(err(None, Some(2), &[("JOB_COMPLETION_INDEX", "2")]).contains("shard 3 of 2"));
        assert!(err(None, None, &[("SLURM_ARRAY_TASK_ID", "x")]).contains("SLURM_ARRAY_TASK_ID=x"));
        assert!(err(None, None, &[("SLURM_ARRAY_TASK_ID", "1")]).contains("SLURM_ARRAY_TASK_COUNT"));
        let beyond = [("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "3")];
        assert!(err(None, None, &beyond).contains("shard 9 of 3"));
        let below = [("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "3")];
        assert!(err(None, None, &below).contains("SLURM_ARRAY_TASK_ID=0"));
        let count = [("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_COUNT", "3")];
        assert!(err(None, Some(4), &count).contains("--shard-count 4 disagrees"));
    }
}
