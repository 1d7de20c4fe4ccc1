//! The search's behaviour checksum: the bench, run as `comb bench` runs it, must search exactly
//! the node count recorded in positions/bench-total.txt. A commit that changes the search
//! changes that file and its `Bench: N` line together.

use comb::bench::{self, BenchLine};
use comb::games::GameOptions;

#[test]
fn bench_total_is_the_recorded_checksum() {
    let recorded = include_str!("../positions/bench-total.txt");
    let recorded: u64 = recorded.trim().parse().unwrap();
    let mut searched = 0;
    let total = bench::run(bench::POSITIONS, None, 1, GameOptions::default(), &mut |_: &BenchLine| {
        searched += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(searched, 32);
    assert_eq!(
        total.nodes, recorded,
        "the search changed: if on purpose, write the new total to positions/bench-total.txt and \
         end the commit message with `Bench: {}`",
        total.nodes
    );
}
