//! Real-time loops around the NES view: watching a player (AI, script or movie) and a person
//! playing with the keyboard.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use playfield_nes::fm2::InputLine;
use playfield_nes::tables::{ORIENTATION_HIDDEN, ORIENTATIONS};
use playfield_nes::{Buttons, CpuPhase, DemoData, Events, GameMode, Nes, PlayState, RenderMode};
use playfield_rom::RomPhases;
use ratatui::crossterm::event::{
    self, Event, KeyCode, KeyEventKind, KeyboardEnhancementFlags, ModifierKeyCode,
    PushKeyboardEnhancementFlags,
};

use super::nes_view::{self, Overlay};
use super::{enter, is_quit};

/// NTSC NES frames per second (the PPU's 60.0988 Hz).
pub const NTSC_FPS: f64 = 60.0988;

/// Something that feeds the engine one input line per frame.
pub trait FramePlayer {
    /// The input for the next frame, seeing the state before it; `None` when it has no more.
    fn next_line(&mut self, nes: &Nes) -> Option<InputLine>;
    /// Where the player means to lock the current piece of `nes` (x 0-9, y 0-19), to outline it.
    fn target(&self, _nes: &Nes) -> Option<[(i16, i16); 4]> {
        None
    }
    /// Hands the gamepad to the next player of the registry (from the next piece on) and
    /// returns the new title; `None` when this player cannot be switched (a movie).
    fn switch_player(&mut self) -> Option<String> {
        None
    }
    /// The CPU phase the console had in the frame of the line just given, for a player that runs
    /// the ROM beside the engine (the engine follows it where a frame's lag or crash depends on
    /// it); `None` otherwise.
    fn cpu_phase(&self) -> Option<CpuPhase> {
        None
    }
}

/// Plays a fixed list of input lines (a movie, or a player's precomputed game). Because the whole
/// input is known, it also knows where each piece will lock: [`MoviePlayer::with_targets`] plays
/// the input once headless and records every lock, so the view can outline the placement before
/// the piece gets there (for the AI, the placement it chose).
pub struct MoviePlayer {
    lines: Vec<InputLine>,
    at: usize,
    /// (frame at which the piece is no longer under control, its four cells), in frame order.
    locks: Vec<(u64, [(i16, i16); 4])>,
    /// The ROM in tetanes, run a frame ahead, whose CPU phase the engine follows; and the phase
    /// of the line last given.
    rom: Option<(RomPhases, Option<CpuPhase>)>,
}

impl MoviePlayer {
    /// A player for `lines` that outlines where each piece will lock. `nes` must be the state the
    /// lines start from (normally power-on, with the same demo data).
    #[must_use]
    pub fn with_targets(lines: Vec<InputLine>, nes: &Nes) -> Self {
        let mut sim = nes.clone();
        let mut locks = Vec::new();
        for line in &lines {
            let was_active = controlled(&sim);
            let events = sim.step_line(line);
            if was_active && !controlled(&sim) && sim.play_state() != PlayState::GameOver {
                locks.push((sim.frame(), last_piece_cells(&sim)));
            }
            if events.has(Events::UNSUPPORTED) {
                break;
            }
        }
        MoviePlayer {
            lines,
            at: 0,
            locks,
            rom: None,
        }
    }

    /// A player for `lines` that runs the ROM in tetanes a frame ahead of the engine and gives
    /// it the CPU phase tetanes has ([`FramePlayer::cpu_phase`]), so the game goes on as on the
    /// ROM in tetanes where a frame's lag or crash depends on the phase. It outlines no
    /// placement: that would need the whole movie run on the ROM before the first frame.
    #[must_use]
    pub fn following_rom(lines: Vec<InputLine>, rom: RomPhases) -> Self {
        MoviePlayer {
            lines,
            at: 0,
            locks: Vec::new(),
            rom: Some((rom, None)),
        }
    }
}

/// True while the player controls a piece in play (not paused).
fn controlled(nes: &Nes) -> bool {
    nes.game_mode() == GameMode::Play
        && nes.render_mode() == RenderMode::PlayAndDemo
        && nes.active_piece().is_some()
}

/// The cells of the piece `tetriminoX`, `tetriminoY` and `currentPiece` describe (after a lock,
/// where it locked), by the ROM's orientation table (the hidden orientation's own entry while
/// it is hidden).
fn last_piece_cells(nes: &Nes) -> [(i16, i16); 4] {
    let (x, y) = nes.piece_position();
    let orientation = nes
        .last_piece()
        .map_or(ORIENTATION_HIDDEN, |piece| piece.orientation.id());
    ORIENTATIONS[usize::from(orientation)].map(|m| {
        (
            i16::from(x) + i16::from(m.dx),
            i16::from(y) + i16::from(m.dy),
        )
    })
}

impl FramePlayer for MoviePlayer {
    fn next_line(&mut self, _nes: &Nes) -> Option<InputLine> {
        let line = self.lines.get(self.at).copied()?;
        if let Some((rom, phase)) = &mut self.rom {
            // A frame's phase needs the next frame's NMI: the ROM runs a line ahead.
            while rom.ahead() < 2 {
                let next = self
                    .lines
                    .get(self.at + rom.ahead())
                    .copied()
                    .unwrap_or(InputLine::new(Buttons::NONE));
                // tetanes failing (not the ROM crashing, which it reports) ends the movie.
                rom.push(&next).ok()?;
            }
            *phase = rom.take()?.phase;
        }
        self.at += 1;
        Some(line)
    }

    fn cpu_phase(&self) -> Option<CpuPhase> {
        self.rom.as_ref().and_then(|(_, phase)| *phase)
    }

    fn target(&self, nes: &Nes) -> Option<[(i16, i16); 4]> {
        if !controlled(nes) {
            return None;
        }
        let i = self.locks.partition_point(|&(f, _)| f <= nes.frame());
        self.locks.get(i).map(|&(_, cells)| cells)
    }
}

/// How fast to run: a multiple of real time, or as fast as the machine goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    /// This many times real time.
    Times(f64),
    /// As fast as possible (while still drawing about 60 times a second).
    Max,
}

impl Speed {
    /// Parses `1`, `2`, `0.5`, `max`; the error names the value and what is allowed.
    pub fn parse(s: &str) -> Result<Speed> {
        if s.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        match s.parse::<f64>() {
            Ok(x) if x.is_finite() && (1.0 / 64.0..=1024.0).contains(&x) => Ok(Speed::Times(x)),
            _ => bail!("must be a number from 0.015625 (1/64) to 1024, or max"),
        }
    }

    fn label(self) -> String {
        match self {
            Speed::Times(x) => format!("×{x}"),
            Speed::Max => "max".to_owned(),
        }
    }
}

/// Settings of [`watch`].
#[derive(Clone, Debug)]
pub struct WatchOptions {
    /// Who plays, shown as the playfield's title.
    pub title: String,
    /// Initial speed.
    pub speed: Speed,
}

/// Watches `player` play on `nes` in the terminal until q / Esc / Ctrl-C. Keys: 1 2 4 set the
/// speed, m = max, + / - double / halve, space or p pauses, s or . steps one frame while paused,
/// n hands the game to the next player (an AI's game).
pub fn watch(nes: &mut Nes, player: &mut dyn FramePlayer, options: &WatchOptions) -> Result<()> {
    let (mut terminal, _guard) = enter("watching")?;
    let mut title = options.title.clone();
    let mut speed = options.speed;
    let mut paused = false;
    let mut finished: Option<String> = None;
    // Frames are due at anchor_frame + elapsed × rate; re-anchored on every speed or pause change
    // so a change never makes the loop "catch up".
    let mut anchor = (Instant::now(), nes.frame());
    let mut step_one = false;
    // Games that ended so far (a movie may hold several).
    let mut top_outs = 0u32;
    loop {
        if super::terminated() {
            return Ok(());
        }
        while event::poll(Duration::ZERO)? {
            let Event::Key(k) = event::read()? else {
                continue;
            };
            if k.kind == KeyEventKind::Release {
                continue;
            }
            if is_quit(k.code, k.modifiers) {
                return Ok(());
            }
            match k.code {
                KeyCode::Char('1') => speed = Speed::Times(1.0),
                KeyCode::Char('2') => speed = Speed::Times(2.0),
                KeyCode::Char('4') => speed = Speed::Times(4.0),
                KeyCode::Char('m') | KeyCode::Char('0') => speed = Speed::Max,
                KeyCode::Char('+') | KeyCode::Char('=') => {
                    speed = match speed {
                        Speed::Times(x) if x < 1024.0 => Speed::Times(x * 2.0),
                        _ => Speed::Max,
                    }
                }
                KeyCode::Char('-') => {
                    speed = match speed {
                        Speed::Times(x) => Speed::Times((x / 2.0).max(1.0 / 64.0)),
                        Speed::Max => Speed::Times(4.0),
                    }
                }
                KeyCode::Char(' ') | KeyCode::Char('p') => paused = !paused,
                KeyCode::Char('s') | KeyCode::Char('.') if paused => step_one = true,
                KeyCode::Char('n') => {
                    if let Some(t) = player.switch_player() {
                        title = t;
                    }
                }
                _ => {}
            }
            anchor = (Instant::now(), nes.frame());
        }

        let started = Instant::now();
        if finished.is_none() {
            let due = if paused {
                nes.frame() + u64::from(std::mem::take(&mut step_one))
            } else {
                match speed {
                    Speed::Times(x) => {
                        anchor.1 + (anchor.0.elapsed().as_secs_f64() * NTSC_FPS * x) as u64
                    }
                    Speed::Max => u64::MAX,
                }
            };
            // Never spend more than ~15 ms stepping between two draws: the screen and the keys stay
            // responsive at any speed, and a slow machine runs slower instead of freezing.
            while nes.frame() < due && started.elapsed() < Duration::from_millis(15) {
                let Some(line) = player.next_line(nes) else {
                    finished = Some("end of input".to_owned());
                    break;
                };
                nes.set_cpu_phase(player.cpu_phase());
                let events = nes.step_line(&line);
                if events.has(Events::TOP_OUT) {
                    top_outs += 1;
                }
                if events.has(Events::UNSUPPORTED) {
                    finished = Some(format!(
                        "engine stopped: {}",
                        nes.unsupported()
                            .map_or_else(|| "unsupported state".to_owned(), |why| why.to_string())
                    ));
                    break;
                }
            }
            if nes.frame() < due && !paused && speed != Speed::Max {
                // Fell behind real time: drop the debt rather than racing to repay it.
                anchor = (Instant::now(), nes.frame());
            }
        }

        let status = match &finished {
            Some(why) => format!("finished ({why}) at frame {}; q quits", nes.frame()),
            None => format!(
                "{}frame {}  speed {}{}  keys: 1 2 4 m speed, +/- faster/slower, space pause, \
                 s step, n next player, q quit",
                if top_outs > 0 { "GAME OVER  " } else { "" },
                nes.frame(),
                speed.label(),
                if paused { " (paused)" } else { "" }
            ),
        };
        let target = player.target(nes);
        terminal.draw(|f| {
            nes_view::draw(
                f,
                nes,
                &Overlay {
                    title: &title,
                    status: &status,
                    target,
                },
            );
        })?;
        // Wait for a key or the next frame (at most one 60 Hz draw period).
        let wait = match speed {
            Speed::Times(x) if !paused && finished.is_none() => {
                Duration::from_secs_f64((1.0 / (NTSC_FPS * x)).min(1.0 / 60.0))
            }
            Speed::Max if !paused && finished.is_none() => Duration::ZERO,
            _ => Duration::from_millis(50),
        };
        event::poll(wait)?;
    }
}

/// How long a key counts as held after its last press or repeat when the terminal cannot report
/// key releases. Terminals send a press, then (after ~250-600 ms) repeats every ~30-50 ms while
/// held; 150 ms bridges the repeats but not the initial delay, so without release events a held
/// arrow moves once, pauses, then auto-shifts — a tap stays a single move, which matters more.
const HOLD_WITHOUT_RELEASE: Duration = Duration::from_millis(150);

/// The NES button a key stands for.
fn button_for(code: KeyCode) -> Option<Buttons> {
    Some(match code {
        KeyCode::Left => Buttons::LEFT,
        KeyCode::Right => Buttons::RIGHT,
        KeyCode::Up => Buttons::UP,
        KeyCode::Down => Buttons::DOWN,
        KeyCode::Enter => Buttons::START,
        // Right Shift only arrives with the kitty keyboard protocol; Tab works everywhere.
        KeyCode::Tab | KeyCode::Modifier(ModifierKeyCode::RightShift) => Buttons::SELECT,
        KeyCode::Char(c) => match c.to_ascii_lowercase() {
            'z' | 'a' => Buttons::B,
            'x' | 's' => Buttons::A,
            _ => return None,
        },
        _ => return None,
    })
}

/// A person plays NES Tetris from power-on with the keyboard, in real time: arrows = D-pad, Z or A
/// = B, X or S = A, Enter = Start, Right Shift or Tab = Select; q / Esc / Ctrl-C quit. The engine
/// does DAS itself, so the keyboard only reports which buttons are held each frame.
pub fn play_human(demo: Option<Arc<DemoData>>) -> Result<()> {
    let (mut terminal, mut guard) = enter("playing")?;
    // Terminals normally report presses and repeats but never releases. Where the terminal speaks
    // the kitty keyboard protocol, ask for release events (REPORT_EVENT_TYPES) so a key is held
    // exactly while it is down; otherwise fall back to HOLD_WITHOUT_RELEASE.
    let releases = matches!(
        ratatui::crossterm::terminal::supports_keyboard_enhancement(),
        Ok(true)
    );
    if releases {
        ratatui::crossterm::execute!(
            std::io::stdout(),
            PushKeyboardEnhancementFlags(
                KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                    | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
                    | KeyboardEnhancementFlags::REPORT_ALL_KEYS_AS_ESCAPE_CODES
            )
        )?;
        guard.enhanced = true;
    }
    let mut nes = Nes::power_on();
    nes.set_demo_data(demo);
    // Per button bit: with releases, Some(_) while down; without, the time of the last press.
    let mut held: [Option<Instant>; 8] = [None; 8];
    let start = Instant::now();
    let title = "you (keyboard)".to_owned();
    loop {
        if super::terminated() {
            return Ok(());
        }
        let due = (start.elapsed().as_secs_f64() * NTSC_FPS) as u64;
        while nes.frame() < due {
            let now = Instant::now();
            let mut buttons = 0u8;
            for (bit, t) in held.iter().enumerate() {
                if t.is_some_and(|t| releases || now.duration_since(t) < HOLD_WITHOUT_RELEASE) {
                    buttons |= 1 << bit;
                }
            }
            // The D-pad cannot report opposite directions together.
            if buttons & 0x03 == 0x03 {
                buttons &= !0x03;
            }
            if buttons & 0x0C == 0x0C {
                buttons &= !0x0C;
            }
            let events = nes.step(Buttons::from_bits_retain(buttons));
            if events.has(Events::UNSUPPORTED) {
                bail!(
                    "the engine stopped at frame {}: {}",
                    nes.frame(),
                    nes.unsupported()
                        .map_or_else(|| "unsupported state".to_owned(), |why| why.to_string())
                );
            }
        }
        let status = format!(
            "arrows, Z/A = B, X/S = A, Enter = Start, Tab{} = Select, q quit{}",
            if releases { " or Right Shift" } else { "" },
            if releases {
                ""
            } else {
                "  (no key-release events here: keys count as held 150 ms)"
            }
        );
        terminal.draw(|f| {
            nes_view::draw(
                f,
                &nes,
                &Overlay {
                    title: &title,
                    status: &status,
                    target: None,
                },
            );
        })?;
        let next = Duration::from_secs_f64((nes.frame() + 1) as f64 / NTSC_FPS);
        let wait = next
            .saturating_sub(start.elapsed())
            .min(Duration::from_millis(50));
        if event::poll(wait)? {
            while event::poll(Duration::ZERO)? {
                let Event::Key(k) = event::read()? else {
                    continue;
                };
                if k.kind != KeyEventKind::Release && is_quit(k.code, k.modifiers) {
                    return Ok(());
                }
                let Some(b) = button_for(k.code) else {
                    continue;
                };
                let bit = b.bits().trailing_zeros() as usize;
                held[bit] = match k.kind {
                    KeyEventKind::Release => None,
                    _ => Some(Instant::now()),
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_parses_numbers_and_max() {
        assert_eq!(Speed::parse("max").unwrap(), Speed::Max);
        assert_eq!(Speed::parse("2").unwrap(), Speed::Times(2.0));
        assert_eq!(Speed::parse("0.5").unwrap(), Speed::Times(0.5));
        for bad in ["0", "-1", "fast", "NaN", "5000"] {
            let err = Speed::parse(bad).unwrap_err().to_string();
            // clap prefixes the value and the option; the reason gives the range.
            assert!(err.contains("1024") && err.contains("max"), "{bad}: {err}");
        }
    }

    #[test]
    fn keys_map_to_nes_buttons() {
        assert_eq!(button_for(KeyCode::Char('Z')), Some(Buttons::B));
        assert_eq!(button_for(KeyCode::Char('a')), Some(Buttons::B));
        assert_eq!(button_for(KeyCode::Char('x')), Some(Buttons::A));
        assert_eq!(button_for(KeyCode::Char('s')), Some(Buttons::A));
        assert_eq!(button_for(KeyCode::Enter), Some(Buttons::START));
        assert_eq!(button_for(KeyCode::Tab), Some(Buttons::SELECT));
        assert_eq!(
            button_for(KeyCode::Modifier(ModifierKeyCode::RightShift)),
            Some(Buttons::SELECT)
        );
        assert_eq!(button_for(KeyCode::Char('q')), None);
    }

    #[test]
    fn movie_player_plays_its_lines_then_stops() {
        let nes = Nes::power_on();
        let mut p = MoviePlayer::with_targets(vec![InputLine::new(Buttons::START)], &nes);
        assert_eq!(p.next_line(&nes).map(|l| l.buttons), Some(Buttons::START));
        assert!(p.next_line(&nes).is_none());
    }

    /// A scripted player's game from level 5, `frames` input lines from power-on.
    fn autoplay_lines(frames: u64) -> Vec<InputLine> {
        let config = playfield_testkit::autoplay::AutoplayConfig {
            setup: playfield_nes::GameSetup::a_type(5),
            max_frames: frames,
            ..Default::default()
        };
        playfield_testkit::autoplay::autoplay_movie(&config)
            .into_iter()
            .map(InputLine::new)
            .collect()
    }

    #[test]
    fn a_movie_followed_on_the_rom_gives_the_roms_phase_each_frame() {
        let Some(rom) = playfield_rom::rom_for_tests() else {
            return;
        };
        let lines = autoplay_lines(2_000);
        // The phases as `nes replay --follow-rom` reads them: the whole movie run first.
        let mut reference = RomPhases::new(&rom).expect("the ROM starts");
        let mut expected = Vec::new();
        for i in 0..lines.len() {
            while reference.ahead() < 2 {
                let next = lines.get(i + reference.ahead()).copied();
                reference
                    .push(&next.unwrap_or(InputLine::new(Buttons::NONE)))
                    .expect("tetanes runs");
            }
            expected.push(reference.take().expect("a line run").phase);
        }
        let rom_phases = RomPhases::new(&rom).expect("the ROM starts");
        let mut player = MoviePlayer::following_rom(lines.clone(), rom_phases);
        let mut nes = Nes::power_on();
        let mut given = 0;
        while let Some(line) = player.next_line(&nes) {
            assert_eq!(line, lines[given]);
            assert_eq!(player.cpu_phase(), expected[given], "line {given}");
            nes.set_cpu_phase(player.cpu_phase());
            nes.step_line(&line);
            given += 1;
        }
        assert_eq!(given, lines.len(), "every line given");
        let told = expected.iter().filter(|p| p.is_some()).count();
        assert!(
            told > lines.len() / 2,
            "{told} of {} lines with a phase",
            lines.len()
        );
    }

    #[test]
    fn targets_are_where_the_pieces_lock() {
        let start = Nes::power_on();
        let lines = autoplay_lines(6_000);
        let mut player = MoviePlayer::with_targets(lines, &start);
        assert!(
            player.locks.len() > 5,
            "several pieces lock in 6,000 frames"
        );
        let mut nes = start;
        let mut checked = 0;
        let mut shown: Option<[(i16, i16); 4]> = None;
        while let Some(line) = player.next_line(&nes) {
            let before = player.target(&nes);
            let was = controlled(&nes);
            nes.step_line(&line);
            if was && !controlled(&nes) && nes.play_state() != PlayState::GameOver {
                // The outline shown while the piece fell is exactly where it locked.
                let locked = last_piece_cells(&nes);
                assert_eq!(shown.or(before), Some(locked), "frame {}", nes.frame());
                checked += 1;
            }
            if before.is_some() {
                shown = before;
            }
            if !controlled(&nes) {
                shown = None;
            }
        }
        assert!(checked > 5);
    }
}
