//! Diagnostics.
use playfield_minijong::{Board, solver::solve_limited};
fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();

    for seed in a[0]..a[1] {
        let t = std::time::Instant::now();
        let b = Board::deal(seed);
        let Some(s) = solve_limited(&b, &b.initial_heights(), a[2]) else {
            println!("{seed} LIMIT {:?}", t.elapsed());
            continue;
        };
        println!(
            "{seed} win={} left={} nodes={} {:?}",
            s.winnable,
            s.tiles_left,
            s.nodes,
            t.elapsed()
        );
    }
}
