//! The search: tactics it must find, determinism with one thread, time limits, threads.

use comb::game::{Color, Game, LevelShape, Outcome};
use comb::hive::{Hive, HiveGame};
use comb::search::{Limits, Searcher, SharingStats, MATE};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn tactics(kind: &str) -> Vec<HiveGame> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/hive-tactics.txt")).unwrap();
    let games: Vec<HiveGame> = text
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(k, _)| *k == kind)
        .map(|(_, s)| HiveGame::parse(s).unwrap())
        .collect();
    assert!(games.len() >= 5, "{kind}");
    games
}

fn best(hive: &Hive, depth: u32) -> (comb::hive::Move, i32) {
    best_on(hive, depth, 1)
}

/// [`best`] searched with `threads` threads.
fn best_on(hive: &Hive, depth: u32, threads: usize) -> (comb::hive::Move, i32) {
    let mut engine = Searcher::new(16, threads);
    let r = engine.search(hive, Limits::depth(depth), &AtomicBool::new(false), &mut |_| {});
    (r.best.unwrap(), r.score)
}

/// Whether the side to move in `hive` wins with its next move.
fn wins_at_once(hive: &mut Hive) -> bool {
    let me = hive.to_move();
    let mut moves = Vec::new();
    hive.generate_moves(&mut moves);
    moves.into_iter().any(|m| {
        hive.make(m);
        let won = hive.outcome() == Outcome::Win(me);
        hive.unmake(m);
        won
    })
}

#[test]
fn finds_the_winning_move() {
    for game in tactics("win1") {
        let mut hive = game.hive().clone();
        let me = hive.to_move();
        let (mv, score) = best(&hive, 2);
        hive.make(mv);
        assert_eq!(hive.outcome(), Outcome::Win(me), "{}", game.game_string());
        assert_eq!(score, MATE - 1);
    }
}

#[test]
fn finds_the_win_in_two_own_moves() {
    for game in tactics("win2") {
        let mut hive = game.hive().clone();
        let (mv, score) = best(&hive, 3);
        assert_eq!(score, MATE - 3, "{}", game.game_string());
        // Whatever the opponent replies, a winning move (or an immediate loss for it) follows.
        hive.make(mv);
        let mut replies = Vec::new();
        hive.generate_moves(&mut replies);
        for r in replies {
            hive.make(r);
            assert!(hive.outcome().is_over() || wins_at_once(&mut hive), "{} {mv:?} {r:?}", game.game_string());
            hive.unmake(r);
        }
    }
}

#[test]
fn blocks_the_threat() {
    for game in tactics("block") {
        let mut hive = game.hive().clone();
        let (mv, _) = best(&hive, 2);
        hive.make(mv);
        assert!(!wins_at_once(&mut hive), "{}: after {mv:?} the opponent still wins", game.game_string());
    }
}

#[test]
fn one_thread_is_deterministic() {
    let game = HiveGame::parse("Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\").unwrap();
    let run = || {
        let mut engine = Searcher::new(16, 1);
        let r = engine.search(game.hive(), Limits::depth(5), &AtomicBool::new(false), &mut |_| {});
        (r.best, r.nodes, r.score, r.pv)
    };
    assert_eq!(run(), run());
}

#[test]
fn time_limit_is_kept() {
    let game = HiveGame::parse("Base+MLP;InProgress;White[11];wM;bM \\wM;wP wM-;bQ bM/;wQ /wM;bP -bQ;wA1 wM\\;bP /bM;wQ bQ\\;wM -bQ;wB1 -wM;bP bM\\;wQ wP/;wA1 /bM;wB1 wM;wA1 bQ\\;wQ wP\\;wA1 bP\\;wA2 wP/;bQ bQ\\").unwrap();
    let mut engine = Searcher::new(16, 1);
    let start = Instant::now();
    let r = engine.search(game.hive(), Limits::time(Duration::from_millis(300)), &AtomicBool::new(false), &mut |_| {});
    let took = start.elapsed();
    // 50 ms is the promise; the margin here is for a loaded test machine.
    assert!(took < Duration::from_millis(300 + 250), "{took:?}");
    assert!(r.depth >= 2, "{r:?}");
    assert!(r.best.is_some());
}

/// UHP has no clock, so a move's time is all the engine gets: the search goes on into
/// iterations it cannot finish rather than answer early. The bound is a floor, which a slow
/// machine only makes easier to meet (a search stops early only on a forced result).
#[test]
fn the_time_given_is_used() {
    let bench = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/positions/bench.txt")).unwrap();
    let middle_games = bench.lines().filter(|l| l.starts_with("6\tBase+MLP;InProgress")).skip(2).take(3);
    for line in middle_games {
        let game = HiveGame::parse(line.split_once('\t').unwrap().1).unwrap();
        let mut engine = Searcher::new(16, 1);
        let r =
            engine.search(game.hive(), Limits::time(Duration::from_millis(400)), &AtomicBool::new(false), &mut |_| {});
        assert!(r.time >= Duration::from_millis(300), "answered after {:?} of 400 ms: {line}", r.time);
        assert!(r.best.is_some());
    }
}

#[test]
fn stop_flag_ends_an_unlimited_search() {
    let game = HiveGame::new(comb::hive::GameType::MLP);
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let mut engine = Searcher::new(16, 1);
        let r = engine.search(game.hive(), Limits::default(), &stop, &mut |_| {});
        assert!(r.best.is_some());
    });
}

#[test]
fn threads_return_legal_moves() {
    for position in [
        "Base+MLP;InProgress;White[6];wG1;bL /wG1;wM wG1/;bM /bL;wA1 wM\\;bQ bL\\;wQ \\wM;bP /bQ;wP /wQ;bA1 -bP",
        "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
    ] {
        let mut game = HiveGame::parse(position).unwrap();
        let legal = game.legal_moves();
        let mut engine = Searcher::new(16, 3);
        for depth in 1..=6 {
            // Helpers share the main thread's nodes: its reports still come in strictly
            // increasing depth, and the answer is of the depth asked for.
            let mut reported = Vec::new();
            let r = engine.search(game.hive(), Limits::depth(depth), &AtomicBool::new(false), &mut |report| {
                reported.push(report.depth)
            });
            assert!(legal.contains(&r.best.unwrap()));
            assert_eq!(r.depth, depth);
            assert_eq!(r.pv.first(), r.best.as_ref());
            assert!(reported.windows(2).all(|w| w[0] < w[1]), "{reported:?}");
            assert_eq!(reported.last(), Some(&depth), "{reported:?}");
        }
    }
}

/// Threads that share nodes still prove what one thread proves: every forced win in two
/// moves, with every thread count from two to four.
#[test]
fn threads_find_the_wins_one_thread_finds() {
    for game in tactics("win2") {
        for threads in 2..=4 {
            let (_, score) = best_on(game.hive(), 5, threads);
            assert_eq!(score, MATE - 3, "{threads} threads: {}", game.game_string());
        }
    }
}

#[test]
fn intellector_search_takes_a_free_intellector() {
    use comb::intellector::{IntellectorGame, Rules};
    // White: Dominator e3, Intellector a1; Black: Intellector e5, open to the Dominator.
    let mut game = IntellectorGame::from_sip("2!wmo2n!Un", Rules::Modern).unwrap();
    let mut engine = Searcher::new(16, 1);
    let r = engine.search(game.position(), Limits::depth(3), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(r.score, MATE - 1);
    game.play_move(r.best.unwrap());
    assert_eq!(game.move_strings(), ["e3e5"]);
    assert_eq!(game.state_string(), "WhiteWins");
    assert_eq!(game.position().ply(), 1);
}

#[test]
fn intellector_search_wins_by_leaving_no_move() {
    use comb::intellector::{IntellectorGame, Rules};
    // White: Liberator a6, Defensor c6, Intellector e1; Black: Intellector a7, with b6 its
    // one way out. Nothing can take it; c6b6 closes the box and Black, who cannot move, loses.
    let mut game = IntellectorGame::from_sip("2!wJiKe4n!An", Rules::Modern).unwrap();
    let mut engine = Searcher::new(16, 1);
    let r = engine.search(game.position(), Limits::depth(3), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(r.score, MATE - 1);
    game.play_move(r.best.unwrap());
    assert_eq!(game.move_strings(), ["c6b6"]);
    assert_eq!(game.state_string(), "WhiteWins");
}

/// A game tree for checking the threads' sharing of nodes: `WIDTH` moves in every position,
/// no position reached twice, every move tactical (so that nothing is reduced or pruned), and a
/// static score drawn from the position's hash. A fixed-depth search of it must find exactly
/// its minimax value, whatever the threads do.
#[derive(Clone)]
struct Tree {
    hashes: Vec<u64>,
}

impl Tree {
    const WIDTH: usize = 8;

    fn new(seed: u64) -> Tree {
        Tree { hashes: vec![mix(seed)] }
    }

    /// The negamax value of every root move searched `depth` plies deep in all.
    fn root_values(&mut self, depth: u32) -> Vec<i32> {
        (0..Tree::WIDTH)
            .map(|mv| {
                self.make(mv);
                let score = -self.alpha_beta(depth - 1, -10_000, 10_000);
                self.unmake(mv);
                score
            })
            .collect()
    }

    /// The negamax value of the position searched `depth` plies deep, by plain alpha-beta in
    /// the window (`alpha`, `beta`): exact inside it.
    fn alpha_beta(&mut self, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.evaluate();
        }
        for mv in 0..Tree::WIDTH {
            self.make(mv);
            let score = -self.alpha_beta(depth - 1, -beta, -alpha);
            self.unmake(mv);
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }
}

fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl Game for Tree {
    type Move = usize;
    const MOVE_INDEX_SIZE: usize = Tree::WIDTH;
    const LEVELS: [LevelShape; 3] = [LevelShape { depth: 1, lines: 1, temperature: 1.0, nodes: 1 }; 3];
    // Every move is tactical, so nothing is reduced or pruned move by move; no node is
    // settled by its static score either, so that the search is the full minimax. No helper
    // searches deeper on its own: its table entries would mix depths into the exact value.
    const PARAMETERS: comb::search::Parameters = comb::search::Parameters {
        static_cut_max_depth: 0,
        helpers_search_alone: false,
        ..comb::search::Parameters::DEFAULT
    };

    fn side_to_move(&self) -> Color {
        Color::at_ply(self.hashes.len() - 1)
    }

    fn ply(&self) -> usize {
        self.hashes.len() - 1
    }

    fn generate_moves(&mut self, moves: &mut Vec<usize>) {
        moves.clear();
        moves.extend(0..Tree::WIDTH);
    }

    fn make(&mut self, mv: usize) {
        let h = mix(self.hash() ^ (mv as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        self.hashes.push(h);
    }

    fn unmake(&mut self, _: usize) {
        self.hashes.pop();
    }

    fn hash(&self) -> u64 {
        *self.hashes.last().unwrap()
    }

    fn outcome(&self) -> Outcome {
        Outcome::InProgress
    }

    fn evaluate(&self) -> i32 {
        (self.hash() % 2001) as i32 - 1000
    }

    fn move_code(mv: usize) -> u32 {
        mv as u32 + 1
    }

    fn move_index(mv: usize) -> usize {
        mv
    }

    fn is_tactical(&self, _: usize) -> bool {
        true
    }
}

/// Threads that share nodes' moves find the exact minimax value, as one thread does, in trees
/// where every node is searched in full (nothing reduced or pruned): a move skipped, searched
/// twice against the wrong bound, or searched from a wrong position would show. The move they
/// return is worth that value, and its line starts with it, whichever thread searched it.
#[test]
fn threads_sharing_nodes_find_the_minimax_value() {
    let mut helped = false;
    for seed in 0..12 {
        let mut tree = Tree::new(seed);
        let depth = 6 + (seed % 3) as u32;
        let exact = tree.alpha_beta(depth, -10_000, 10_000);
        let values = tree.root_values(depth);
        for threads in [1, 2, 3, 4, 6] {
            let mut engine = Searcher::new(4, threads);
            let mut main_nodes = 0;
            let r = engine
                .search(&tree, Limits::depth(depth), &AtomicBool::new(false), &mut |report| main_nodes = report.nodes);
            assert_eq!(r.score, exact, "seed {seed}, {threads} threads");
            assert_eq!(r.depth, depth);
            let best = r.best.expect("a move");
            assert_eq!(values[best], exact, "seed {seed}, {threads} threads: move {best}");
            assert_eq!(r.pv.first(), Some(&best));
            // Helpers count their own nodes; the reports count the main thread's.
            helped |= threads > 1 && r.nodes > main_nodes;
        }
    }
    assert!(helped, "no helper ever shared a node");
}

/// A search stopped in the middle of an iteration, while threads share nodes, answers with
/// what it proved: the last finished iteration's move and exact score, or a move of the
/// unfinished iteration that was searched in full, worth at least the score it reports.
#[test]
fn a_search_stopped_while_threads_share_nodes_answers_with_what_it_proved() {
    let mut partial = 0;
    for seed in 0..12 {
        let mut tree = Tree::new(100 + seed);
        let values: Vec<Vec<i32>> = (1..=9).map(|depth| tree.root_values(depth)).collect();
        for budget in [3_000, 10_000, 30_000, 100_000] {
            let mut engine = Searcher::new(4, 2);
            let limits = Limits { nodes: Some(budget), ..Limits::default() };
            let r = engine.search(&tree, limits, &AtomicBool::new(false), &mut |_| {});
            let best = r.best.expect("a move");
            let depth = r.depth as usize;
            assert!((1..9).contains(&depth), "seed {seed}, budget {budget}: depth {depth}");
            if r.from_partial {
                partial += 1;
                assert!(values[depth][best] >= r.score, "seed {seed}, budget {budget}: move {best}");
            } else {
                assert_eq!(values[depth - 1][best], r.score, "seed {seed}, budget {budget}: move {best}");
            }
        }
    }
    assert!(partial > 0, "no search answered from an unfinished iteration");
}

/// A search reports how its threads shared nodes: nothing with one thread; with two, nodes
/// split, moves searched by the helper among those shared, and the helper's idle time, each
/// within what it is a part of. Whether the helper gets a core in time to be given a node, or
/// to take a move, depends on what else the machine runs (the other tests, in parallel): a
/// search may end before the helper has waited for work at all, and then shares nothing. So
/// searches are repeated until the helper has taken a move and a shared move has failed high.
#[test]
fn threads_report_how_they_shared_nodes() {
    let tree = Tree::new(7);
    let search = |threads| {
        let mut engine = Searcher::new(4, threads);
        engine.search(&tree, Limits::depth(7), &AtomicBool::new(false), &mut |_| {})
    };
    assert_eq!(search(1).sharing, SharingStats::default());
    let (mut helped, mut cut) = (false, false);
    let mut searches = 0;
    while !(helped && cut) && searches < 200 {
        let r = search(2);
        let s = r.sharing;
        // Every node split shares at least one move.
        assert!(s.moves >= s.splits, "{s:?}");
        assert!(s.splits_cut <= s.splits && s.moves_helped <= s.moves && s.moot_nodes < r.nodes, "{s:?}");
        // A node is split only while the helper waits for work, so then it has waited.
        assert!(s.splits == 0 || s.idle > Duration::ZERO, "{s:?}");
        assert!(s.idle < 2 * r.time, "{s:?}");
        helped |= s.moves_helped > 0;
        cut |= s.splits_cut > 0;
        searches += 1;
    }
    assert!(
        helped && cut,
        "in {searches} searches the helper never searched a shared move, or no shared move failed high"
    );
}

/// The deep run of [`threads_sharing_nodes_find_the_minimax_value`]: the threads' timing
/// differs run to run, so a race shows only in some runs (a lost shared move once gave a wrong
/// score about once in 300 runs of seed 5). Two threads, 100 runs of each of 8 seeds at depth 8:
/// about 20 s (`cargo test --release --test search -- --ignored`).
#[test]
#[ignore]
fn threads_find_the_minimax_value_run_after_run() {
    for seed in 0..8 {
        let mut tree = Tree::new(seed);
        let exact = tree.alpha_beta(8, -10_000, 10_000);
        for run in 0..100 {
            let mut engine = Searcher::new(4, 2);
            let r = engine.search(&tree, Limits::depth(8), &AtomicBool::new(false), &mut |_| {});
            assert_eq!(r.score, exact, "seed {seed}, run {run}");
        }
    }
}
