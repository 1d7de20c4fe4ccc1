//! `comb selfplay`: reproducible with a seed, whatever the thread count, and every line a
//! position a tuner can read back.

use comb::games::GameOptions;
use comb::search::Limits;
use comb::train::selfplay::{run, SelfplayTally, Settings};

fn settings(game_type: &str, threads: usize) -> Settings {
    Settings {
        game_type: game_type.to_string(),
        options: GameOptions::default(),
        games: 4,
        limits: Limits::depth(2),
        openings: Vec::new(),
        random_plies: 4,
        max_plies: 120,
        seed: 7,
        threads,
        table_megabytes: 1,
        shard: None,
    }
}

fn play(settings: &Settings) -> (String, SelfplayTally) {
    let mut out = Vec::new();
    let tally = run(settings, &mut out, &mut |_| {}).unwrap();
    (String::from_utf8(out).unwrap(), tally)
}

#[test]
fn the_same_seed_gives_the_same_file_on_any_thread_count() {
    let (one, tally) = play(&settings("Base+MLP", 1));
    let (two, _) = play(&settings("Base+MLP", 2));
    assert_eq!(one, two);
    assert_eq!(tally.games, 4);
    assert_eq!(tally.kept, one.lines().count());
    // Four random plies a game are the book.
    assert_eq!(tally.book, 16);
    let other = play(&Settings { seed: 8, ..settings("Base+MLP", 1) }).0;
    assert_ne!(one, other, "another seed plays other games");
}

#[test]
fn every_line_is_a_result_a_score_and_a_quiet_position_of_the_game() {
    for game_type in ["Base", "Base+MLP", "Intellector"] {
        let (text, tally) = play(&settings(game_type, 2));
        assert!(tally.kept > 0, "{game_type}: {tally:?}");
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 3, "{line}");
            assert!(["1", "0.5", "0"].contains(&fields[0]), "{line}");
            let score: i32 = fields[1].parse().unwrap();
            assert!(score.abs() < comb::train::selfplay::DECIDED, "{line}");
            let mut game = GameOptions::default().parse(fields[2]).unwrap();
            assert!(!game.is_over(), "{line}");
            assert!(game.valid_moves().contains(';'), "a forced position was kept: {line}");
            assert!(game.plies() >= 4, "a book position was kept: {line}");
        }
    }
}

#[test]
fn a_game_stopped_at_the_ply_cap_is_a_draw() {
    let (text, _) = play(&Settings { max_plies: 12, games: 2, ..settings("Base+MLP", 1) });
    assert!(!text.is_empty());
    assert!(text.lines().all(|l| l.starts_with("0.5\t")), "{text}");
}

#[test]
fn shards_play_the_games_of_the_whole_run() {
    use comb::tournament::shard::Shard;
    let whole = Settings { games: 5, ..settings("Base", 2) };
    let (all, tally) = play(&whole);
    let mut lines: Vec<&str> = Vec::new();
    let mut games = 0;
    let shards: Vec<(String, SelfplayTally)> =
        (1..=2).map(|k| play(&Settings { shard: Some(Shard::new(k, 2).unwrap()), ..whole.clone() })).collect();
    for (text, tally) in &shards {
        lines.extend(text.lines());
        games += tally.games;
    }
    assert_eq!((games, shards[0].1.games), (5, 3), "games 0, 2, 4 and 1, 3");
    let mut whole_lines: Vec<&str> = all.lines().collect();
    whole_lines.sort();
    lines.sort();
    assert_eq!(lines, whole_lines, "the shards' lines are the whole run's");
    assert_eq!(tally.kept, lines.len());
}
