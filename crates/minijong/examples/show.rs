//! Prints a deal's levels.
use playfield_minijong::{Board, Slot};
fn main() {
    let seed: u64 = std::env::args().nth(1).unwrap().parse().unwrap();
    let b = Board::deal(seed);
    for l in 0..3 {
        let side = 7 - 2 * l;
        for r in 0..side {
            let pad = " ".repeat(2 * l);
            let s: Vec<String> = (0..side)
                .map(|c| {
                    ((b'A' + b.face(Slot::new(l, r, c).unwrap()).unwrap() - 1) as char).to_string()
                })
                .collect();
            println!("{pad}{}", s.join(" "));
        }
        println!();
    }
}
