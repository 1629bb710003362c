//! Traces of the real ROM: numbering, padding, JSON round trip, determinism.

use playfield_nes::fm2::InputLine;
use playfield_nes::trace::TraceFrame;
use playfield_nes::{GameSetup, GameType};
use playfield_rom::{Emulator, RomError, rom_for_tests};
use playfield_testkit::movies::{PlayStyle, to_game};
use playfield_testkit::trace::{first_divergence, parse_trace_line};

fn trace(e: &mut Emulator, lines: &[InputLine], frames: usize) -> Vec<TraceFrame> {
    let mut out = Vec::new();
    e.trace_movie(lines, frames, |t| -> Result<(), RomError> {
        out.push(t.clone());
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn rom_traces_are_numbered_padded_and_deterministic() {
    let Some(rom) = rom_for_tests() else { return };
    let mut e = Emulator::new(&rom).unwrap();
    let setup = GameSetup {
        game_type: GameType::B,
        music: 3,
        level: 12,
        height: 4,
    };
    let movie = to_game(setup, 3, PlayStyle::Mixed, 400, false);
    let lines: Vec<InputLine> = movie.buttons.iter().map(|&b| InputLine::new(b)).collect();
    let frames = lines.len() + 50;
    let a = trace(&mut e, &lines, frames);
    assert_eq!(
        a.len(),
        frames,
        "padded with empty input past the movie's end"
    );
    for (i, t) in a.iter().enumerate() {
        assert_eq!(t.frame, i as u64 + 1);
        assert_eq!(t.play.is_some(), t.game_mode == 4, "frame {}", t.frame);
        let line = t.to_json_line();
        assert_eq!(&parse_trace_line(&line).unwrap(), t);
    }
    let first_play = a.iter().position(|t| t.game_mode == 4).unwrap();
    assert_eq!(first_play + 1, movie.play_frame);
    // B-type height 4 fills the bottom rows with garbage: some cell is not empty ($EF).
    let late = a[movie.play_frame + 40].play.as_ref().unwrap();
    assert!(late.playfield.iter().any(|&c| c != 0xEF));

    let b = trace(&mut e, &lines, frames);
    assert_eq!(first_divergence(&a, &b), None, "same movie, same trace");

    let mut other = lines.clone();
    other[movie.play_frame + 20] = InputLine::new(playfield_nes::Buttons::START);
    let c = trace(&mut e, &other, frames);
    let d = first_divergence(&a, &c).expect("a pause changes the trace");
    assert!(d.to_string().starts_with("frame "), "{d}");
}
