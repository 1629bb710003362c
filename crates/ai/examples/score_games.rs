//! Plays benchmark games with the score player and prints a summary line (for development).
use playfield_ai::nes::bench::{Format, run, summarize};
use playfield_ai::nes::{Player, ScoreWeights};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let format: Format = args
        .get(1)
        .map_or("betatetris", String::as_str)
        .parse()
        .unwrap();
    let games: u32 = args.get(2).map_or(8, |s| s.parse().unwrap());
    let seed: u64 = args.get(3).map_or(1, |s| s.parse().unwrap());
    let who = args.get(4).map_or("score", String::as_str);
    let options = format.options();
    let input = options.input_model().unwrap();
    let player = match who {
        "birken" => Player::birken(input),
        path if path.ends_with(".json") => Player::score_with(
            ScoreWeights::load(std::path::Path::new(path)).unwrap(),
            input,
        ),
        _ => Player::score(input),
    };
    if let Some(index) = args.get(5) {
        trace(&options, &player, seed, index.parse().unwrap(), 10);
        return;
    }
    let results = run(&options, &player, seed, 0..games, || {});
    for (i, r) in results.iter().enumerate() {
        println!(
            "game {i}: uncapped {} score {} lines {} level {} tetris {:.2} burn {} end {:?}",
            r.uncapped_score,
            r.score,
            r.lines,
            r.level,
            r.tetris_rate(),
            r.burned_lines(),
            r.end
        );
    }
    let s = summarize(&options, &results);
    println!("{}", serde_json::to_string(&s).unwrap());
}

/// Prints the board after every `every` pieces of one game (development aid).
#[allow(dead_code)]
pub fn trace(
    options: &playfield_ai::nes::bench::BenchOptions,
    player: &Player,
    seed: u64,
    index: u32,
    every: u32,
) {
    let mut pieces = 0;
    let _ = playfield_ai::nes::play_game(&options.game(seed, index), player, |_, nes| {
        if nes.last_events().locked() {
            pieces += 1;
            if pieces % every == 0 {
                println!(
                    "piece {pieces} lines {} level {} score {}\n{}",
                    nes.lines(),
                    nes.level(),
                    nes.uncapped_score(),
                    nes.board()
                );
            }
        }
        Ok(())
    });
}
