//! Diagnostics: end state of the best line found within a budget.
use playfield_minijong::{Board, Game, Slot, solver::best_within};
fn main() {
    let a: Vec<u64> = std::env::args()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let b = Board::deal(a[0]);
    // Run a budgeted search only to print the position; the unbounded line is what matters.
    let (s, decided) = best_within(&b, &b.initial_heights(), a[1]);
    println!("decided {decided} left {}", s.tiles_left);

    let mut g = Game::new(b.clone());
    for &p in &s.moves {
        g.play(p).unwrap();
    }
    for r in 0..7 {
        let mut line = String::new();
        for c in 0..7 {
            let p = r * 7 + c;
            let cell: String = (0..g.heights()[p] as usize)
                .map(|l| (b'A' + b.face(Slot::at(p, l).unwrap()).unwrap() - 1) as char)
                .collect();
            line.push_str(&format!(
                "{:>4}",
                if cell.is_empty() { ".".into() } else { cell }
            ));
        }
        println!("{line}");
    }
}
