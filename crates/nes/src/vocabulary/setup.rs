//! Getting from power-on to a game through the gamepad: what the menus are set to
//! ([`GameSetup`]) and a closed-loop driver that presses the buttons to get there
//! ([`MenuDriver`]).
//!
//! The driver reads the menus' variables each frame and presses one button at a time, released
//! the next frame, because the menus act only on a newly pressed single button (a level of 10-19
//! is A held while Start is newly pressed). It reads either the engine or a 2 KiB RAM image, so
//! the same presses drive the real ROM in an emulator.

use crate::engine::Nes;
use crate::ram::addr;
use crate::ram::game_mode;
use crate::vocabulary::buttons::Buttons;
use crate::vocabulary::typed_view::GameType;

/// What the menus are set to when play starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct GameSetup {
    /// `gameType`: A-type or B-type (game-type menu, Left/Right).
    pub game_type: GameType,
    /// `musicType`: 0-2 are the three tunes, 3 is off (game-type menu, Up/Down).
    pub music: u8,
    /// `startLevel`: 0-19; 10-19 are chosen with A held on Start.
    pub level: u8,
    /// `startHeight`: the B-type garbage height 0-5 (not used by A-type).
    pub height: u8,
}

impl GameSetup {
    /// An A-type game from `level` with the first tune.
    #[must_use]
    pub const fn a_type(level: u8) -> GameSetup {
        GameSetup {
            game_type: GameType::A,
            music: 0,
            level,
            height: 0,
        }
    }

    /// A B-type game from `level` and `height` with the first tune.
    #[must_use]
    pub const fn b_type(level: u8, height: u8) -> GameSetup {
        GameSetup {
            game_type: GameType::B,
            music: 0,
            level,
            height,
        }
    }
}

/// The menus' variables the driver steers by.
#[derive(Clone, Copy, Debug)]
struct MenuState {
    game_mode: u8,
    game_type: u8,
    music_type: u8,
    start_level: u8,
    start_height: u8,
    /// `originalY` ($AE) is nonzero while B-type's height cursor is selected.
    selecting_height: bool,
}

impl MenuState {
    fn of(nes: &Nes) -> MenuState {
        let raw = &nes.raw;
        MenuState {
            game_mode: raw.game_mode,
            game_type: raw.game_type,
            music_type: raw.music_type,
            start_level: raw.player1.start_level,
            start_height: raw.player1.start_height,
            selecting_height: raw.original_y != 0,
        }
    }

    fn from_ram(ram: &[u8; 0x800]) -> MenuState {
        // `startLevel` and `startHeight` are bytes 7 and $19 of the player-1 block.
        MenuState {
            game_mode: ram[addr::GAME_MODE],
            game_type: ram[addr::GAME_TYPE],
            music_type: ram[addr::MUSIC_TYPE],
            start_level: ram[addr::PLAYER1 + 0x07],
            start_height: ram[addr::PLAYER1 + 0x19],
            selecting_height: ram[addr::ORIGINAL_Y] != 0,
        }
    }
}

/// Presses the buttons that take the game from power-on (or any screen before play) to a game
/// with a [`GameSetup`], reading the menus' state each frame (closed loop).
///
/// On the legal and title screens it presses Start; on the game-type menu it sets the type and
/// the music, then Start; on the level menu it first waits `level_menu_wait` frames (the piece
/// RNG steps every frame there, so the wait picks the game's pieces), then moves the cursors and
/// presses Start (A, then A + Start, for levels 10-19). Elsewhere it presses nothing. Settings
/// beyond the menus' ranges are clamped to them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuDriver {
    setup: GameSetup,
    level_menu_wait: u64,
    waited: u64,
}

impl MenuDriver {
    /// A driver for `setup` that waits `level_menu_wait` frames on the level menu before it
    /// presses anything there.
    #[must_use]
    pub fn new(setup: GameSetup, level_menu_wait: u64) -> MenuDriver {
        MenuDriver {
            setup: GameSetup {
                game_type: setup.game_type,
                music: setup.music.min(3),
                level: setup.level.min(19),
                height: setup.height.min(5),
            },
            level_menu_wait,
            waited: 0,
        }
    }

    /// The game this driver steers to.
    #[must_use]
    pub fn setup(&self) -> GameSetup {
        self.setup
    }

    /// The buttons for the engine's next frame; `prev` is what the last frame pressed.
    pub fn buttons(&mut self, nes: &Nes, prev: Buttons) -> Buttons {
        self.next(MenuState::of(nes), prev)
    }

    /// The same from a RAM image ($0000-$07FF) after the last frame, e.g. the real ROM's.
    pub fn buttons_from_ram(&mut self, ram: &[u8; 0x800], prev: Buttons) -> Buttons {
        self.next(MenuState::from_ram(ram), prev)
    }

    /// Steps `nes` with this driver's buttons until `done(nes)` holds (checked before every
    /// frame), appending each frame's buttons to `input`, whose last entry is taken as the last
    /// frame's press. False when the engine stops (a state it does not model) or `max_frames`
    /// pass first.
    pub fn drive_until(
        &mut self,
        nes: &mut Nes,
        input: &mut Vec<Buttons>,
        max_frames: u32,
        done: impl Fn(&Nes) -> bool,
    ) -> bool {
        let mut prev = input.last().copied().unwrap_or(Buttons::NONE);
        for _ in 0..max_frames {
            if done(nes) {
                return true;
            }
            let buttons = self.buttons(nes, prev);
            nes.step(buttons);
            input.push(buttons);
            prev = buttons;
            if nes.unsupported().is_some() {
                return false;
            }
        }
        false
    }

    fn next(&mut self, s: MenuState, prev: Buttons) -> Buttons {
        match s.game_mode {
            game_mode::LEGAL | game_mode::TITLE => {
                if prev.is_empty() {
                    Buttons::START
                } else {
                    Buttons::NONE
                }
            }
            game_mode::GAME_TYPE_MENU => {
                if !prev.is_empty() {
                    return Buttons::NONE;
                }
                let want = self.setup;
                if s.game_type != want.game_type.to_raw() {
                    if want.game_type == GameType::B {
                        Buttons::RIGHT
                    } else {
                        Buttons::LEFT
                    }
                } else if s.music_type < want.music {
                    Buttons::DOWN
                } else if s.music_type > want.music {
                    Buttons::UP
                } else {
                    Buttons::START
                }
            }
            game_mode::LEVEL_MENU => self.level_menu(s, prev),
            _ => Buttons::NONE,
        }
    }

    fn level_menu(&mut self, s: MenuState, prev: Buttons) -> Buttons {
        let want = self.setup;
        if self.waited < self.level_menu_wait {
            self.waited += 1;
            return Buttons::NONE;
        }
        let level = s.start_level;
        let target = want.level % 10;
        let set =
            level == target && (want.game_type == GameType::A || s.start_height == want.height);
        if set && prev == Buttons::A && want.level >= 10 {
            // A held, then Start: the level menu adds 10. (In B-type that A also flipped the
            // cursor between level and height, which no longer matters.)
            return Buttons::A | Buttons::START;
        }
        if !prev.is_empty() {
            return Buttons::NONE;
        }
        if level != target {
            if s.selecting_height {
                return Buttons::A;
            }
            // The levels are two rows of five: Down and Up move by five.
            return if target >= level + 5 {
                Buttons::DOWN
            } else if target + 5 <= level {
                Buttons::UP
            } else if target > level {
                Buttons::RIGHT
            } else {
                Buttons::LEFT
            };
        }
        if want.game_type == GameType::B && s.start_height != want.height {
            if !s.selecting_height {
                return Buttons::A;
            }
            return if s.start_height < want.height {
                Buttons::RIGHT
            } else {
                Buttons::LEFT
            };
        }
        if want.level >= 10 {
            Buttons::A
        } else {
            Buttons::START
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::typed_view::GameMode;

    #[test]
    fn drive_until_stops_where_asked() {
        let mut nes = Nes::power_on();
        let mut input = Vec::new();
        let mut driver = MenuDriver::new(GameSetup::a_type(3), 7);
        assert!(driver.drive_until(&mut nes, &mut input, 5_000, |n| {
            n.game_mode() == GameMode::LevelMenu
        }));
        assert_eq!(nes.game_mode(), GameMode::LevelMenu);
        assert_eq!(input.len() as u64, nes.frame());
        assert!(driver.drive_until(&mut nes, &mut input, 5_000, Nes::in_game));
        assert_eq!(nes.start_level(), 3);
    }

    /// Drives the engine from power-on to the first frame of play.
    fn drive(setup: GameSetup, wait: u64) -> Nes {
        let mut nes = Nes::power_on();
        let mut driver = MenuDriver::new(setup, wait);
        let mut prev = Buttons::NONE;
        for _ in 0..20_000 {
            if nes.game_mode() == GameMode::Play {
                return nes;
            }
            let mut twin = driver.clone();
            let b = driver.buttons(&nes, prev);
            assert_eq!(
                twin.buttons_from_ram(&nes.ram(), prev),
                b,
                "the RAM reads the same"
            );
            nes.step(b);
            prev = b;
        }
        panic!("{setup:?} never started");
    }

    #[test]
    fn reaches_every_setup() {
        for level in 0..20 {
            for (game_type, height) in [(GameType::A, 0), (GameType::B, level % 6)] {
                let setup = GameSetup {
                    game_type,
                    music: level % 4,
                    level,
                    height,
                };
                let nes = drive(setup, 0);
                assert_eq!(nes.game_type(), game_type, "{setup:?}");
                assert_eq!(nes.start_level(), level, "{setup:?}");
                assert_eq!(nes.raw.music_type, setup.music, "{setup:?}");
                if game_type == GameType::B {
                    assert_eq!(nes.raw.player1.start_height, height, "{setup:?}");
                }
            }
        }
    }

    #[test]
    fn each_frame_of_wait_starts_the_game_a_frame_later() {
        // Past the menu's first frames (it reads no input for four), the presses after the wait
        // are the same whatever the wait.
        let setup = GameSetup::b_type(13, 2);
        let base = drive(setup, 20).frame();
        for wait in [21, 100, 1_000] {
            assert_eq!(drive(setup, wait).frame(), base + wait - 20, "wait {wait}");
        }
    }
}
