//! Writes a movie played by the scripted player:
//! `cargo run --release -p playfield-nes --example autoplay -- OUT.fm2 [type level height seed games frames noise]`

use playfield_nes::autoplay::{AutoplayConfig, autoplay_movie};
use playfield_nes::fm2::Movie;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let config = AutoplayConfig {
        game_type: num(1, 0) as u8,
        start_level: num(2, 0) as u8,
        height: num(3, 0) as u8,
        seed: num(4, 1),
        games: num(5, 1) as u32,
        max_frames: num(6, 100_000),
        noise: num(7, 0) != 0,
        music_type: (num(4, 1) % 4) as u8,
    };
    let movie = Movie::new(autoplay_movie(&config));
    let out = args.first().map_or("autoplay.fm2", String::as_str);
    std::fs::write(out, movie.to_fm2()).expect("write the movie");
}
