//! Seeded input movies from power-on: through the menus to a chosen game, then random play.
//!
//! The movies are open loop (they never look at the game), so they rely on the menus' timing,
//! measured on the ROM (`playfield-rom`'s `movies` tests check every generated movie reaches
//! the game it was built for). Input line `k` is read while producing frame `k + 1`; a mode that
//! a Start on line `k` enters is the game mode of frame `k + 1`:
//!
//! | screen (gameMode)   | first line whose press is read, after the frame `T` the mode appears |
//! |---------------------|----------------------------------------------------------------------|
//! | legal (0)           | Start on lines 267..=522 skips it; else the title appears at frame 523 |
//! | title (1)           | `T + 4`, `T + 5` after B (times out into the demo in ~1,280 frames)  |
//! | game type menu (2)  | `T + 3`, also after B in the level menu                              |
//! | level menu (3)      | `T + 4`                                                              |
//!
//! Menus act on a frame's newly pressed buttons only when they are exactly one button, so every
//! press here is a single button followed by at least one released line; A held before Start
//! adds 10 to the level. Gameplay input is a random mix of styles (taps, DAS holds, soft drop,
//! rotation spam, pauses, Select, chaos); it keeps going after the game ends, through the curtain,
//! high-score entry and the level menu, where a Start may begin another game. Random input there
//! also presses B, which backs out to the title; a title left alone for ~1,280 frames runs the
//! demo (game mode 5), so suite movies visit the demo too (seen in 3 of 3 sampled).

use playfield_nes::fm2::Movie;
use playfield_nes::{Buttons, GameSetup, GameType};
use playfield_rng::SplitMix64;

/// Input line from which Start skips the legal screen (the first 267 lines cannot).
pub const LEGAL_FIRST_SKIP_LINE: usize = 267;
/// Without Start, the frame at which the title screen appears.
pub const LEGAL_TIMEOUT_FRAME: usize = 523;
/// Lines from the frame the title appears to the first line it reads.
pub const TITLE_READ_DELAY: usize = 4;
/// The same after B in the game type menu: that routine returns with A = 0 = `gameModeState`,
/// so the main loop waits for one more NMI before running the title.
pub const TITLE_READ_DELAY_AFTER_B: usize = 5;
/// Lines from the frame the game type menu appears to the first line it reads.
pub const GAME_TYPE_READ_DELAY: usize = 3;
/// Lines from the frame the level menu appears to the first line it reads.
pub const LEVEL_MENU_READ_DELAY: usize = 4;

/// A generated movie: player 1's buttons per input line, and what it was built to reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedMovie {
    /// A short name for reports, e.g. `a-level-07-seed-7`.
    pub name: String,
    /// One entry per input line, from power-on.
    pub buttons: Vec<Buttons>,
    /// The game the menus were driven to.
    pub setup: GameSetup,
    /// The first frame in play (`game_mode` 4): the state after this many lines.
    pub play_frame: usize,
}

/// How the gameplay part of a movie plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayStyle {
    /// A random mix of every style, switching every 30-600 frames.
    Mixed,
    /// No input at all: pieces fall straight down (and the game waits after its curtain).
    Idle,
    /// Single-frame taps of one button with random gaps.
    Taps,
    /// Long Left or Right holds (DAS charge and auto-repeat), with rotations.
    Holds,
    /// Down held for long stretches (soft drop, push-down points), with shifts.
    SoftDrop,
    /// A and B pressed every frame or every other frame.
    Rotations,
    /// Start to pause, random input while paused, Start to resume.
    Pauses,
    /// Select taps (preview on/off) between taps.
    Select,
    /// A random set of buttons every line, opposite directions included (Start and Select rare).
    Chaos,
}

/// The styles `Mixed` picks from, soft drop weighted up so that games top out (and the movie
/// goes on through the curtain and the menus) well within a movie.
const STYLES: [PlayStyle; 13] = [
    PlayStyle::Idle,
    PlayStyle::Taps,
    PlayStyle::Taps,
    PlayStyle::Holds,
    PlayStyle::Holds,
    PlayStyle::SoftDrop,
    PlayStyle::SoftDrop,
    PlayStyle::SoftDrop,
    PlayStyle::SoftDrop,
    PlayStyle::Rotations,
    PlayStyle::Pauses,
    PlayStyle::Select,
    PlayStyle::Chaos,
];

/// Mixed into a movie's seed before it seeds the generator (kept so every movie stays the same).
const SEED_SALT: u64 = 0x005e_ed0f_7e75_1500;

/// Builds the input lines and tracks what the menus will hold.
struct Builder {
    rng: SplitMix64,
    lines: Vec<Buttons>,
    game_type: GameType,
    music_type: u8,
    /// Level cursor 0-9 in the level menu.
    level: u8,
    height: u8,
}

impl Builder {
    fn wait(&mut self, n: usize) {
        self.lines.extend(std::iter::repeat_n(Buttons::NONE, n));
    }

    /// One line with `b`, then 1-`max_gap` released lines.
    fn tap(&mut self, b: Buttons, max_gap: usize) {
        self.lines.push(b);
        let gap = self.rng.range(1, max_gap);
        self.wait(gap);
    }

    /// Waits `delay` lines plus a random slack (sometimes none, so the earliest line is covered).
    fn settle(&mut self, delay: usize) {
        let slack = if self.rng.chance(30) {
            0
        } else {
            self.rng.range(1, 40)
        };
        self.wait(delay + slack);
    }

    /// Presses Start on the next line: the new mode appears at the frame after it.
    fn start(&mut self) {
        self.lines.push(Buttons::START);
    }

    fn legal_screen(&mut self) {
        if self.rng.chance(25) {
            // Let both phases run out.
            self.wait(LEGAL_TIMEOUT_FRAME);
        } else {
            let line = if self.rng.chance(30) {
                LEGAL_FIRST_SKIP_LINE
            } else {
                self.rng
                    .range(LEGAL_FIRST_SKIP_LINE, LEGAL_TIMEOUT_FRAME - 1)
            };
            // Before the skip window Start is ignored: press it there sometimes to prove it.
            self.wait(line);
            if self.rng.chance(30) {
                // At least one released line before `line`, so its Start is newly pressed.
                let early = self.rng.range(0, (LEGAL_FIRST_SKIP_LINE - 1).min(line - 2));
                self.lines[early] = Buttons::START;
            }
            self.start();
        }
    }

    fn title(&mut self, after_b: bool) {
        self.settle(if after_b {
            TITLE_READ_DELAY_AFTER_B
        } else {
            TITLE_READ_DELAY
        });
        self.start();
    }

    /// Game type menu: set `game_type` and `music_type`, wandering first; sometimes back to the
    /// title and round again.
    fn game_type_menu(&mut self, target: &GameSetup, detours: bool) {
        self.settle(GAME_TYPE_READ_DELAY);
        if detours && self.rng.chance(20) {
            let b = random_dir(&mut self.rng);
            self.game_type_press(b);
            self.lines.push(Buttons::B);
            self.title(true);
            self.settle(GAME_TYPE_READ_DELAY);
        }
        for _ in 0..self.rng.range(0, 4) {
            let b = self
                .rng
                .pick(&[Buttons::LEFT, Buttons::RIGHT, Buttons::UP, Buttons::DOWN]);
            self.game_type_press(b);
        }
        while self.game_type != target.game_type {
            let b = if target.game_type == GameType::B {
                Buttons::RIGHT
            } else {
                Buttons::LEFT
            };
            self.game_type_press(b);
        }
        while self.music_type != target.music {
            let b = if target.music > self.music_type {
                Buttons::DOWN
            } else {
                Buttons::UP
            };
            self.game_type_press(b);
        }
        self.start();
    }

    fn game_type_press(&mut self, b: Buttons) {
        match b {
            Buttons::RIGHT => self.game_type = GameType::B,
            Buttons::LEFT => self.game_type = GameType::A,
            Buttons::DOWN if self.music_type < 3 => self.music_type += 1,
            Buttons::UP if self.music_type > 0 => self.music_type -= 1,
            _ => {}
        }
        self.tap(b, 12);
    }

    /// Level menu: move the cursors to the target, then Start (with A held for levels 10-19).
    /// Returns false if it went back to the game type menu instead (B).
    fn level_menu(&mut self, target: &GameSetup, detours: bool) -> bool {
        self.settle(LEVEL_MENU_READ_DELAY);
        // Entering the menu keeps the level cursor in 0-9 and selects the level.
        self.level %= 10;
        let mut selecting_height = false;
        if detours && self.rng.chance(20) {
            for _ in 0..self.rng.range(0, 3) {
                let b = random_dir(&mut self.rng);
                self.level_press(b, &mut selecting_height);
            }
            self.lines.push(Buttons::B);
            return false;
        }
        for _ in 0..self.rng.range(0, 5) {
            let b = random_dir(&mut self.rng);
            self.level_press(b, &mut selecting_height);
        }
        let want_level = target.level % 10;
        if target.game_type == GameType::B {
            // Height first or level first.
            if self.rng.chance(50) {
                self.level_press(Buttons::A, &mut selecting_height);
            }
            for _ in 0..2 {
                if selecting_height {
                    while self.height != target.height {
                        let b = step_toward(self.height, target.height, 3);
                        self.level_press(b, &mut selecting_height);
                    }
                } else {
                    while self.level != want_level {
                        let b = step_toward(self.level, want_level, 5);
                        self.level_press(b, &mut selecting_height);
                    }
                }
                self.level_press(Buttons::A, &mut selecting_height);
            }
        } else {
            while self.level != want_level {
                let b = step_toward(self.level, want_level, 5);
                self.level_press(b, &mut selecting_height);
            }
        }
        if target.level >= 10 {
            // A newly pressed on its own line (in B-type it flips the cursor, harmless now),
            // then Start newly pressed while A is held: held = A+Start adds 10.
            let hold = self.rng.range(1, 6);
            self.lines.extend(std::iter::repeat_n(Buttons::A, hold));
            self.lines.push(Buttons::A | Buttons::START);
        } else {
            self.start();
        }
        true
    }

    fn level_press(&mut self, b: Buttons, selecting_height: &mut bool) {
        let (value, cols) = if *selecting_height {
            (&mut self.height, (5u8, 3u8))
        } else {
            (&mut self.level, (9u8, 5u8))
        };
        let (max, row) = cols;
        match b {
            Buttons::RIGHT if *value != max => *value += 1,
            Buttons::LEFT if *value != 0 => *value -= 1,
            Buttons::DOWN if *value < row => *value += row,
            Buttons::UP if *value >= row => *value -= row,
            Buttons::A if self.game_type == GameType::B => *selecting_height = !*selecting_height,
            _ => {}
        }
        self.tap(b, 12);
    }

    /// Random gameplay input until the movie is `total` lines long.
    fn play(&mut self, style: PlayStyle, total: usize) {
        while self.lines.len() < total {
            let s = match style {
                PlayStyle::Mixed => self.rng.pick(&STYLES),
                s => s,
            };
            let len = self.rng.range(30, 600).min(total - self.lines.len());
            self.segment(s, len);
            // A lone Start now and then: it pauses a running game, and it is what moves on from
            // the lowered curtain, the high-score entry and the level menu after a game.
            if style != PlayStyle::Idle && self.rng.chance(15) {
                self.wait(1);
                self.tap(Buttons::START, 30);
            }
        }
        self.lines.truncate(total);
    }

    fn segment(&mut self, style: PlayStyle, len: usize) {
        let end = self.lines.len() + len;
        let moves = [
            Buttons::LEFT,
            Buttons::RIGHT,
            Buttons::DOWN,
            Buttons::A,
            Buttons::B,
        ];
        while self.lines.len() < end {
            match style {
                PlayStyle::Mixed | PlayStyle::Idle => self.wait(end - self.lines.len()),
                PlayStyle::Taps => {
                    let b = self.rng.pick(&moves);
                    let gap = self.rng.range(1, 20);
                    self.tap(b, gap);
                    if self.rng.chance(20) {
                        // A short soft drop between taps.
                        let n = self.rng.range(2, 20);
                        self.lines.extend(std::iter::repeat_n(Buttons::DOWN, n));
                        self.wait(1);
                    }
                }
                PlayStyle::Holds => {
                    let dir = self.rng.pick(&[Buttons::LEFT, Buttons::RIGHT]);
                    for _ in 0..self.rng.range(1, 40) {
                        let rotate = if self.rng.chance(10) {
                            self.rng.pick(&[Buttons::A, Buttons::B])
                        } else {
                            Buttons::NONE
                        };
                        self.lines.push(dir | rotate);
                    }
                    let gap = self.rng.range(0, 10);
                    self.wait(gap);
                }
                PlayStyle::SoftDrop => {
                    let shift = if self.rng.chance(30) {
                        self.rng.pick(&[Buttons::LEFT, Buttons::RIGHT])
                    } else {
                        Buttons::NONE
                    };
                    for _ in 0..self.rng.range(1, 60) {
                        self.lines.push(Buttons::DOWN | shift);
                    }
                    let gap = self.rng.range(0, 15);
                    self.wait(gap);
                }
                PlayStyle::Rotations => {
                    let every = self.rng.range(1, 2);
                    for _ in 0..self.rng.range(2, 30) {
                        let b = self
                            .rng
                            .pick(&[Buttons::A, Buttons::B, Buttons::A | Buttons::B]);
                        self.lines.push(b);
                        self.wait(every - 1);
                    }
                }
                PlayStyle::Pauses => {
                    let before = self.rng.range(0, 60);
                    self.wait(before);
                    self.lines.push(Buttons::START);
                    // While paused only a newly pressed Start (alone) counts.
                    for _ in 0..self.rng.range(1, 120) {
                        let noise = if self.rng.chance(20) {
                            Buttons::from_bits_retain(
                                (self.rng.next_u64() as u8) & !Buttons::START.bits(),
                            )
                        } else {
                            Buttons::NONE
                        };
                        self.lines.push(noise);
                    }
                    self.lines.push(Buttons::START);
                    self.wait(1);
                }
                PlayStyle::Select => {
                    self.tap(Buttons::SELECT, 30);
                    let b = self.rng.pick(&moves);
                    self.tap(b, 10);
                }
                PlayStyle::Chaos => {
                    let mut bits = (self.rng.next_u64() as u8)
                        & !(Buttons::START.bits() | Buttons::SELECT.bits());
                    if self.rng.chance(2) {
                        bits |= Buttons::SELECT.bits();
                    }
                    if self.rng.chance(1) {
                        bits |= Buttons::START.bits();
                    }
                    self.lines.push(Buttons::from_bits_retain(bits));
                }
            }
        }
    }
}

/// The menu press that moves a grid cursor (`width` columns, values row by row) one step from
/// `from` toward `to`: rows first (Down/Up add or take `width`), then columns.
fn step_toward(from: u8, to: u8, width: u8) -> Buttons {
    if to / width > from / width {
        Buttons::DOWN
    } else if to / width < from / width {
        Buttons::UP
    } else if to > from {
        Buttons::RIGHT
    } else {
        Buttons::LEFT
    }
}

/// A random direction, for wandering in the menus.
fn random_dir(rng: &mut SplitMix64) -> Buttons {
    rng.pick(&[Buttons::LEFT, Buttons::RIGHT, Buttons::UP, Buttons::DOWN])
}

/// A movie from power-on to a game with `setup`, then `play_frames` lines of `style` play.
///
/// With `detours` the menus are wandered: back from the level menu to the game type menu, back
/// to the title, cursor moves that get undone.
#[must_use]
pub fn to_game(
    setup: GameSetup,
    seed: u64,
    style: PlayStyle,
    play_frames: usize,
    detours: bool,
) -> GeneratedMovie {
    let mut b = Builder {
        rng: SplitMix64::new(seed ^ SEED_SALT),
        lines: Vec::with_capacity(play_frames + 2_000),
        game_type: GameType::A,
        music_type: 0,
        level: 0,
        height: 0,
    };
    b.legal_screen();
    b.title(false);
    loop {
        b.game_type_menu(&setup, detours);
        if b.level_menu(&setup, detours) {
            break;
        }
    }
    let play_frame = b.lines.len();
    b.play(style, play_frame + play_frames);
    let type_letter = match setup.game_type {
        GameType::A => 'a',
        GameType::B => 'b',
    };
    GeneratedMovie {
        name: format!(
            "{type_letter}-level-{:02}-height-{}-seed-{seed}",
            setup.level, setup.height
        ),
        buttons: b.lines,
        setup,
        play_frame,
    }
}

impl GeneratedMovie {
    /// The movie as an FCEUX `.fm2` movie.
    #[must_use]
    pub fn to_fm2(&self) -> Movie {
        let mut movie = Movie::new(self.buttons.iter().copied());
        movie.header.push((
            "comment".to_owned(),
            format!("playfield generated movie {}", self.name),
        ));
        movie
    }
}

/// The movies of the differential suite against the ROM: 26 movies, about 240,000 frames.
///
/// A-type at every start level 0-19 (10-19 through A+Start), all four music settings, and B-type
/// at every height 0-5; the play styles vary per movie and within the `Mixed` ones, so pauses,
/// Select, soft drop, DAS, rotations and chaotic input all occur, and every game is long enough to
/// top out and run on through the curtain and the menus after it.
#[must_use]
pub fn differential_suite() -> Vec<GeneratedMovie> {
    const STYLE_CYCLE: [PlayStyle; 10] = [
        PlayStyle::Mixed,
        PlayStyle::Mixed,
        PlayStyle::Taps,
        PlayStyle::Holds,
        PlayStyle::SoftDrop,
        PlayStyle::Mixed,
        PlayStyle::Rotations,
        PlayStyle::Chaos,
        PlayStyle::Pauses,
        PlayStyle::Select,
    ];
    let mut movies = Vec::new();
    for level in 0..20u8 {
        let setup = GameSetup {
            game_type: GameType::A,
            music: level % 4,
            level,
            height: 0,
        };
        // Low levels need longer to top out.
        let frames = if level < 10 { 12_000 } else { 6_000 };
        let style = STYLE_CYCLE[usize::from(level) % STYLE_CYCLE.len()];
        movies.push(to_game(
            setup,
            1_000 + u64::from(level),
            style,
            frames,
            level % 3 == 0,
        ));
    }
    for (height, level) in [0u8, 5, 9, 12, 15, 19].into_iter().enumerate() {
        let setup = GameSetup {
            game_type: GameType::B,
            music: (height % 4) as u8,
            level,
            height: height as u8,
        };
        movies.push(to_game(
            setup,
            2_000 + height as u64,
            PlayStyle::Mixed,
            8_000,
            height % 2 == 0,
        ));
    }
    movies
}

/// The movie engine and emulator speed are measured on (both benchmarks use it, so their
/// frames per second compare): A-type level 5, mixed play, 20,000 gameplay frames after the menus.
#[must_use]
pub fn benchmark_movie() -> GeneratedMovie {
    to_game(GameSetup::a_type(5), 42, PlayStyle::Mixed, 20_000, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(game_type: GameType, level: u8, height: u8, music: u8) -> GameSetup {
        GameSetup {
            game_type,
            music,
            level,
            height,
        }
    }

    #[test]
    fn same_seed_same_movie() {
        let s = setup(GameType::B, 13, 4, 2);
        assert_eq!(
            to_game(s, 9, PlayStyle::Mixed, 3_000, true),
            to_game(s, 9, PlayStyle::Mixed, 3_000, true)
        );
        assert_ne!(
            to_game(s, 9, PlayStyle::Mixed, 3_000, true).buttons,
            to_game(s, 10, PlayStyle::Mixed, 3_000, true).buttons
        );
    }

    #[test]
    fn length_is_menus_plus_play() {
        let m = to_game(
            setup(GameType::A, 3, 0, 0),
            1,
            PlayStyle::Chaos,
            1_234,
            false,
        );
        assert_eq!(m.buttons.len(), m.play_frame + 1_234);
        assert!(m.play_frame > LEGAL_FIRST_SKIP_LINE);
        // The line before play is the Start that begins it.
        assert!(m.buttons[m.play_frame - 1].contains(Buttons::START));
    }

    #[test]
    fn levels_ten_and_up_start_with_a_held() {
        for level in [9, 10, 19] {
            let m = to_game(
                setup(GameType::A, level, 0, 0),
                5,
                PlayStyle::Idle,
                10,
                false,
            );
            let start = m.buttons[m.play_frame - 1];
            assert_eq!(start.contains(Buttons::A), level >= 10, "level {level}");
            if level >= 10 {
                assert_eq!(m.buttons[m.play_frame - 2], Buttons::A);
            }
        }
    }

    #[test]
    fn cursor_steps_reach_every_target() {
        for (width, max) in [(5u8, 9u8), (3, 5)] {
            for from in 0..=max {
                for to in 0..=max {
                    let mut v = from;
                    for _ in 0..10 {
                        if v == to {
                            break;
                        }
                        match step_toward(v, to, width) {
                            Buttons::DOWN => v += width,
                            Buttons::UP => v -= width,
                            Buttons::RIGHT => v += 1,
                            _ => v -= 1,
                        }
                    }
                    assert_eq!(v, to, "{from} -> {to} in a {width}-wide grid");
                }
            }
        }
    }

    #[test]
    fn suite_covers_every_start_level_height_music_and_input_style() {
        let suite = differential_suite();
        assert!(suite.len() >= 20);
        let frames: usize = suite.iter().map(|m| m.buttons.len()).sum();
        assert!(frames >= 200_000, "{frames} frames");
        for level in 0..20 {
            assert!(
                suite
                    .iter()
                    .any(|m| m.setup.level == level && m.setup.game_type == GameType::A)
            );
        }
        for height in 0..6 {
            assert!(
                suite
                    .iter()
                    .any(|m| m.setup.height == height && m.setup.game_type == GameType::B)
            );
        }
        for music in 0..4 {
            assert!(suite.iter().any(|m| m.setup.music == music));
        }
        let play = |m: &GeneratedMovie| m.buttons[m.play_frame..].to_vec();
        assert!(
            suite.iter().any(|m| play(m).contains(&Buttons::START)),
            "pause"
        );
        assert!(
            suite.iter().any(|m| play(m).contains(&Buttons::SELECT)),
            "select"
        );
        assert!(
            suite.iter().any(|m| play(m)
                .iter()
                .any(|b| b.contains(Buttons::LEFT | Buttons::RIGHT))),
            "opposite directions"
        );
        let mut names: Vec<&str> = suite.iter().map(|m| m.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), suite.len(), "names are unique");
    }

    #[test]
    fn fm2_round_trip() {
        let m = to_game(setup(GameType::B, 0, 5, 3), 3, PlayStyle::Mixed, 500, true);
        let text = m.to_fm2().to_fm2();
        let back = Movie::parse(&text).unwrap();
        assert_eq!(back.buttons().collect::<Vec<_>>(), m.buttons);
    }
}
