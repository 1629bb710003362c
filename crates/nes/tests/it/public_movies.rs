//! The public movies of `tests/movies/` (TASVideos publications and meta_nestris' movies) reach
//! every checkpoint of `tests/movies/checkpoints.txt` in the engine, without a ROM.

use playfield_nes::Nes;
use playfield_nes::fm2::{Command, InputLine};
use playfield_testkit::public_movies::{checkpoints, load, movie_names, run_checkpoints};

#[test]
fn every_public_movie_reaches_its_checkpoints() {
    let names = movie_names();
    assert_eq!(names.len(), 33, "the 33 public movies");
    let mut failures = Vec::new();
    for name in &names {
        let mut nes = Nes::power_on();
        failures.extend(run_checkpoints(name, |line| {
            nes.step_line(line);
            assert!(
                nes.unsupported().is_none(),
                "{name}: {:?}",
                nes.unsupported()
            );
            nes.ram()
        }));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checkpoints().len(), 52, "every checkpoint read");
}

/// Two TASVideos movies converted from an older format begin with a soft-reset command; FCEUX
/// applies it right after power-on, before the CPU has run, where it changes nothing.
#[test]
fn a_command_on_the_first_line_does_nothing() {
    for (name, command) in [
        (
            "a_type_999999_score/tasvideos_239m.fm2",
            Command::SOFT_RESET,
        ),
        (
            "a_type_999999_score/tasvideos_386m.fm2",
            Command::SOFT_RESET,
        ),
        ("a_type_999999_score/tasvideos_399m.fm2", Command::POWER),
    ] {
        let lines = load(name);
        assert_eq!(lines[0].command, command, "{name}");
        let mut with = Nes::power_on();
        let mut without = Nes::power_on();
        for (i, line) in lines.iter().enumerate().take(2_000) {
            with.step_line(line);
            let plain = if i == 0 {
                InputLine::new(line.buttons)
            } else {
                *line
            };
            without.step_line(&plain);
            assert_eq!(with.ram(), without.ram(), "{name}: frame {}", i + 1);
        }
    }
    // Any command on the first line, also on a made-up movie.
    for command in [Command::SOFT_RESET, Command::POWER, Command(3)] {
        let mut nes = Nes::power_on();
        let mut fresh = Nes::power_on();
        nes.step_line(&InputLine {
            command,
            ..InputLine::default()
        });
        fresh.step_line(&InputLine::default());
        for _ in 0..400 {
            nes.step_line(&InputLine::default());
            fresh.step_line(&InputLine::default());
        }
        assert_eq!(nes.ram(), fresh.ram(), "{command:?}");
        assert_eq!(nes.frame(), fresh.frame());
    }
}

/// A reset later in a movie still acts: the game goes back to the legal screen.
#[test]
fn a_reset_after_the_first_line_still_acts() {
    let mut nes = Nes::power_on();
    for _ in 0..100 {
        nes.step_line(&InputLine::default());
    }
    assert_eq!(nes.ram()[0xC0], 0, "the legal screen");
    for _ in 0..300 {
        nes.step_line(&InputLine::new(playfield_nes::Buttons::START));
        nes.step_line(&InputLine::default());
    }
    assert_ne!(nes.ram()[0xC0], 0, "past the legal screen");
    nes.step_line(&InputLine {
        command: Command::SOFT_RESET,
        ..InputLine::default()
    });
    for _ in 0..10 {
        nes.step_line(&InputLine::default());
    }
    assert_eq!(
        nes.ram()[0xC0],
        0,
        "back on the legal screen after the reset"
    );
}
