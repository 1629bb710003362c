//! The engine's cycle model of the ROM's code, compared with the ROM instruction by instruction:
//! the sound driver's calls over whole games, every music type.

use playfield_nes::GameSetup;
use playfield_nes::ProgramData;
use playfield_nes::timing_probe::{probe_music_catch_up, probe_update_audio};
use playfield_nes::{Nes, Region};
use playfield_rom::{Emulator, rom_for_tests};
use playfield_testkit::movies::{PlayStyle, to_game};

/// `updateAudio`.
const UPDATE_AUDIO: u16 = 0xE216;

/// A call of the sound driver on the ROM, while it runs.
struct Call {
    /// The RAM as the call starts.
    ram: [u8; 0x800],
    /// Its first cycle.
    start: u32,
    /// The ROM's instructions so far (address, cycle).
    trace: Vec<(u16, u32)>,
    /// Where the call returns.
    ret: u16,
}

#[test]
fn sound_driver_calls_match_the_rom() {
    let Some(rom) = rom_for_tests() else { return };
    let prg = ProgramData::from_ines(rom.bytes()).expect("the PRG reads");
    let frames: usize = std::env::var("PLAYFIELD_AUDIO_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_500);
    let mut calls = 0usize;
    let mut failures = Vec::new();
    for music in 0..4u8 {
        let setup = GameSetup {
            music,
            ..GameSetup::a_type(9)
        };
        let movie = to_game(setup, 7 + u64::from(music), PlayStyle::Mixed, frames, true);
        let mut e = Emulator::new(&rom).expect("the ROM loads");
        let mut open: Option<Call> = None;
        for &b in &movie.buttons {
            e.step_traced(b, |bus, ram| {
                let pc = bus.cpu.pc;
                let cycle = bus.cpu.cycle;
                if let Some(call) = open.as_mut() {
                    if pc == 0x8005 {
                        // An NMI inside the call: not compared.
                        open = None;
                    } else if pc == call.ret {
                        let Call {
                            ram: before,
                            start,
                            trace,
                            ..
                        } = open.take().expect("open");
                        calls += 1;
                        let mut engine_ram = before;
                        let (cycles, exact, engine_trace) =
                            probe_update_audio(&mut engine_ram, &prg);
                        let rom_cycles = u64::from(cycle - start);
                        let same_ram = engine_ram[0x680..0x700] == ram[0x680..0x700];
                        if cycles != rom_cycles || !exact || !same_ram {
                            let first = trace
                                .iter()
                                .zip(engine_trace.iter())
                                .find(|((pa, ca), (pb, cb))| {
                                    pa != pb || u64::from(*ca - start) != *cb
                                })
                                .map(|((pa, ca), (pb, cb))| {
                                    format!(
                                        "ROM ${pa:04X} at +{}, engine ${pb:04X} at +{cb}",
                                        ca - start
                                    )
                                });
                            failures.push(format!(
                                "music {music} call {calls}: ROM {rom_cycles} cycles, engine \
                                 {cycles} (exact {exact}, RAM equal {same_ram}); first \
                                 difference: {first:?}"
                            ));
                        }
                    } else {
                        call.trace.push((pc, cycle));
                    }
                } else if pc == UPDATE_AUDIO {
                    // The return address the `jsr updateAudio_jmp` pushed.
                    let sp = bus.cpu.sp;
                    let lo = ram[0x100 + usize::from(sp.wrapping_add(1))];
                    let hi = ram[0x100 + usize::from(sp.wrapping_add(2))];
                    let ret = (u16::from(lo) | u16::from(hi) << 8).wrapping_add(1);
                    open = Some(Call {
                        ram: *ram,
                        start: cycle,
                        trace: vec![(pc, cycle)],
                        ret,
                    });
                }
            })
            .expect("the ROM runs");
        }
    }
    eprintln!(
        "{calls} calls of updateAudio compared, {} differ",
        failures.len()
    );
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(calls > 1_000, "{calls} calls");
    assert!(failures.is_empty(), "{} calls differ", failures.len());
}

#[test]
fn music_caught_up_from_its_load_plays_as_the_roms() {
    // The lag model starts at level 90 with the music's state simulated from the frame its track
    // was loaded (RAM the sequencer never wrote since is left zero, where the ROM keeps what an
    // earlier track left). Checked here every 250 frames of play from power-on: from there, the
    // engine's caught-up music and the ROM's (sound effects silenced in both) take the same
    // cycles in each of the driver's next 600 calls.
    let Some(rom) = rom_for_tests() else { return };
    let prg = std::sync::Arc::new(ProgramData::from_ines(rom.bytes()).expect("the PRG reads"));
    let silence = |ram: &mut [u8; 0x800]| {
        ram[0x68A] = 0; // resetSq12ForMusic
        ram[0x6C8..0x6CB].fill(0); // musicChanInhibit
        ram[0x6F0..0x6FD].fill(0); // the sound effects' init and playing bytes, musicTrack
    };
    let mut compared = 0;
    for music_type in 0..4u8 {
        let setup = GameSetup {
            music: music_type,
            ..GameSetup::a_type(9)
        };
        let movie = to_game(
            setup,
            11 + u64::from(music_type),
            PlayStyle::Mixed,
            3_000,
            true,
        );
        let mut e = Emulator::new(&rom).expect("the ROM loads");
        let mut nes = Nes::power_on_region(Region::Ntsc);
        nes.set_program_data(Some(prg.clone()));
        for (i, &b) in movie.buttons.iter().enumerate() {
            e.step(b).expect("the ROM runs");
            nes.step(b);
            let every = if std::env::var("EVERY").is_ok() {
                1
            } else {
                250
            };
            // Not while paused: the model starts in a level-up frame, whose driver call plays the
            // music (the probe plays this frame's call).
            if i > movie.play_frame
                && i % every == 0
                && nes.raw().game_mode == 4
                && e.ram()[0x68D] != 0x05
            {
                let mut rom_ram = e.ram();
                let mut engine_ram = rom_ram;
                engine_ram[0x680..0x700].copy_from_slice(&probe_music_catch_up(&nes));
                silence(&mut rom_ram);
                silence(&mut engine_ram);
                for call in 0..if every == 1 { 1 } else { 600 } {
                    let (rom_cycles, _, _) = probe_update_audio(&mut rom_ram, &prg);
                    let (engine_cycles, _, _) = probe_update_audio(&mut engine_ram, &prg);
                    assert_eq!(
                        engine_cycles,
                        rom_cycles,
                        "music {music_type} frame {}: call {call} after the catch-up; {:?}",
                        i + 1,
                        (0x680..0x700)
                            .filter(|&a| engine_ram[a] != rom_ram[a])
                            .map(|a| format!("{a:04X}:{:02X}/{:02X}", engine_ram[a], rom_ram[a]))
                            .collect::<Vec<_>>()
                    );
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 20, "{compared} frames compared");
}
