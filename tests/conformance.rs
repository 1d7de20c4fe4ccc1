//! `comb conformance`: comb passes its own suite; an engine with one altered reply fails the
//! right cases with the difference and exit status 1; `--allow` turns a declared deviation
//! into `allowed`; bad case files and engines that do not start exit with status 2; and comb's
//! rules agree with every expectation stored in positions/conformance.txt.

mod common;
use comb::conformance::cases::{self, Expect};
use comb::conformance::moves::{legal, MoveKey};
use comb::hive::HiveGame;
use common::{comb, data, stderr, stdout, temp_dir, COMB};

/// The altered engine of tests/fake_conformance.sh in `mode`, as the arguments after `--`.
fn fake(mode: &str) -> Vec<String> {
    vec![data("tests/fake_conformance.sh"), COMB.to_string(), mode.to_string()]
}

fn run(args: &[&str], engine: &[String]) -> std::process::Output {
    let mut all: Vec<&str> = vec!["conformance"];
    all.extend_from_slice(args);
    all.push("--");
    all.extend(engine.iter().map(String::as_str));
    comb(&all)
}

#[test]
fn comb_passes_its_own_suite() {
    let out = run(&["--seconds", "2"], &[COMB.to_string()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    let cases = cases::parse(&std::fs::read_to_string(data("positions/conformance.txt")).unwrap(), "x").unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // One line per case, the walk, the summary.
    assert_eq!(lines.len(), cases.len() + 2, "{text}");
    assert!(lines[..cases.len()].iter().all(|l| l.starts_with("pass  ")), "{text}");
    assert!(lines[cases.len()].starts_with("pass  walk: "), "{text}");
    assert!(lines[cases.len()].ends_with("seed 1"), "{text}");
    let total = cases.len() + 1;
    assert_eq!(lines.last().unwrap(), &format!("conformance: {total} passed, 0 failed, 0 allowed of {total}"));
}

#[test]
fn an_altered_reply_fails_its_cases_with_the_difference() {
    let out = run(&["--seconds", "0"], &fake("queen-first"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert!(text.contains("FAIL  start-base: only the engine lists wQ\n"), "{text}");
    // The other case that lists white's first Base moves.
    assert!(text.contains("FAIL  command-keyword-any-case: only the engine lists wQ\n"), "{text}");
    let summary = text.lines().last().unwrap();
    assert!(summary.starts_with("conformance: ") && summary.contains(" passed, 2 failed, 0 allowed of "), "{text}");
}

#[test]
fn the_walk_stops_at_the_first_difference_with_a_reproducible_report() {
    let out = run(&["--seconds", "20", "--case", "walk", "--seed", "7", "--game-type", "Base"], &fake("no-ants"));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("FAIL  walk: game "), "{text}");
    assert!(lines[0].contains("`validmoves` differs: only comb lists "), "{text}");
    assert!(lines[1].starts_with("      position: Base;InProgress;"), "{text}");
    assert!(lines[2].starts_with("      reproduce: comb conformance --seed 7 --seconds 20 --case walk -- "), "{text}");
    assert_eq!(lines.last().unwrap(), &"conformance: 0 passed, 1 failed, 0 allowed of 1");
}

#[test]
fn allow_turns_a_declared_deviation_into_allowed() {
    let dir = temp_dir("conformance", "allow");
    let file = dir.join("cases.txt");
    std::fs::write(&file, "[opening]\nallow: queen-first\nnewgame: Base\nmoves: wS1;wB1;wG1;wA1\n").unwrap();
    let file = file.to_str().unwrap();
    let out = run(&["--seconds", "0", "--file", file], &fake("queen-first"));
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).starts_with("FAIL  opening: only the engine lists wQ\n"), "{}", stdout(&out));
    let out = run(&["--seconds", "0", "--file", file, "--allow", "queen-first"], &fake("queen-first"));
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(
        stdout(&out),
        "allowed  opening (queen-first): only the engine lists wQ\nconformance: 0 passed, 0 failed, 1 allowed (queen-first) of 1\n"
    );
    // A tag no case declares is a typo, not a silent no-op.
    let out = run(&["--seconds", "0", "--file", file, "--allow", "queen-frist"], &fake("queen-first"));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--allow queen-frist: no case declares that deviation"), "{}", stderr(&out));
}

#[test]
fn bad_files_arguments_and_engines_exit_with_status_2() {
    let dir = temp_dir("conformance", "bad");
    let file = dir.join("cases.txt");
    std::fs::write(&file, "# a case\n[start]\nnewgame: Base\nmoves: wS1;wQ1\n").unwrap();
    let out = run(&["--seconds", "0", "--file", file.to_str().unwrap()], &[COMB.to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cases.txt line 4: `wQ1` is not a MoveString"), "{}", stderr(&out));

    let out = run(&["--seconds", "0"], &["/no/such/engine".to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("error: engine `/no/such/engine`: could not start"), "{}", stderr(&out));

    for args in
        [&["--seconds", "-1"][..], &["--game-type", "Base+LM"], &["--timeout", "0"], &["--case", "no-such-case"]]
    {
        let out = run(args, &[COMB.to_string()]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    // The engine is required.
    assert_eq!(comb(&["conformance"]).status.code(), Some(2));
}

/// The keys of comb's legal moves in `game`.
fn comb_keys(game: &HiveGame) -> Vec<(String, MoveKey)> {
    legal(&mut game.clone())
}

#[test]
fn combs_rules_agree_with_every_stored_expectation() {
    let text = std::fs::read_to_string(data("positions/conformance.txt")).unwrap();
    let all = cases::parse(&text, "positions/conformance.txt").unwrap();
    assert!(all.len() >= 90, "{} cases", all.len());
    let mut checked = 0;
    for case in &all {
        let name = &case.name;
        match &case.expect {
            Expect::Moves { piece, moves } => {
                let game = case.position.as_ref().unwrap();
                let mut mine: Vec<MoveKey> = comb_keys(game)
                    .into_iter()
                    .map(|(_, k)| k)
                    .filter(|k| piece.is_none() || k.piece() == *piece)
                    .collect();
                let mut stored: Vec<MoveKey> = moves.iter().map(|(_, k)| *k).collect();
                mine.sort();
                stored.sort();
                assert_eq!(mine, stored, "case {name} (line {})", case.line);
                checked += 1;
            }
            Expect::OneOf(moves) => {
                let mine: Vec<MoveKey> =
                    comb_keys(case.position.as_ref().unwrap()).into_iter().map(|(_, k)| k).collect();
                assert!(moves.iter().all(|(_, k)| mine.contains(k)), "case {name}: a move comb finds illegal");
                checked += 1;
            }
            Expect::GameString(expected) => {
                // The state and turn written in the case are what comb's rules compute.
                let game = HiveGame::parse(expected).unwrap();
                assert_eq!(
                    &game.game_string().split(';').take(3).collect::<Vec<_>>().join(";"),
                    &expected.split(';').take(3).collect::<Vec<_>>().join(";"),
                    "case {name}"
                );
                checked += 1;
            }
            Expect::Lines(_) | Expect::Check(_) => {}
        }
    }
    assert!(checked >= 70, "{checked} cases checked");
}
