//! The screens before a game: legal screen, title, game-type menu and level menu.

use crate::engine::{Flow, Nes, Wait};
use crate::ram::game_mode;
use crate::screens::Screen;
use crate::vocabulary::buttons::Buttons;

const START: u8 = Buttons::START.bits();

impl Nes {
    /// `gameMode_legalScreen`: up to the copy of the screen.
    pub(crate) fn game_mode_legal_screen(&mut self) -> Flow {
        self.update_audio2();
        self.raw.render_mode = 0;
        Flow::Wait(Wait::LoadDisable(Screen::Legal))
    }

    /// `sleep_for_a_vblanks` with `LEGAL_SLEEP_TIME`, then the Start-skippable second phase.
    pub(crate) fn legal_sleep(&mut self) -> Flow {
        if self.raw.sleep_counter != 0 {
            return Flow::Wait(Wait::LegalSleep);
        }
        self.raw.general_counter = self.region.legal_sleep_time();
        self.legal_check_start()
    }

    /// `@waitForStartButton` (legal screen): checks Start before each wait.
    fn legal_check_start(&mut self) -> Flow {
        if self.raw.newly_pressed_buttons_player1 == START {
            self.raw.game_mode += 1;
            return Flow::Ret(START);
        }
        Flow::Wait(Wait::LegalStart)
    }

    pub(crate) fn legal_start_waited(&mut self) -> Flow {
        self.raw.general_counter = self.raw.general_counter.wrapping_sub(1);
        if self.raw.general_counter != 0 {
            return self.legal_check_start();
        }
        self.raw.game_mode += 1;
        // A still holds $FF from the wait's memset_page.
        Flow::Ret(0xFF)
    }

    /// `gameMode_titleScreen`: up to the copy of the screen.
    pub(crate) fn game_mode_title_screen(&mut self) -> Flow {
        self.update_audio2();
        self.raw.render_mode = 0;
        self.raw.demo_recording = 0;
        self.raw.display_next_piece = 0;
        Flow::Wait(Wait::LoadDisable(Screen::Title))
    }

    /// The title's `@waitForStartButton` loop, after its wait.
    pub(crate) fn title_start(&mut self) -> Flow {
        if self.raw.newly_pressed_buttons_player1 == START {
            self.raw.game_mode += 1;
            return Flow::Ret(0x02);
        }
        if (self.raw.frame_counter >> 8) == 0x05 {
            self.raw.game_mode = game_mode::START_DEMO;
            return Flow::Ret(0x06);
        }
        Flow::Wait(Wait::TitleStart)
    }

    /// `gameMode_gameTypeMenu`: up to the copy of the screen.
    pub(crate) fn game_mode_game_type_menu(&mut self) -> Flow {
        self.raw.render_mode = 1;
        Flow::Wait(Wait::LoadDisable(Screen::GameTypeMenu))
    }

    /// One pass of the game-type menu loop (`L830B`). The ROM compares the newly pressed buttons
    /// for equality, so two buttons pressed on the same frame do nothing.
    pub(crate) fn game_type_menu_frame(&mut self) -> Flow {
        let newly = self.raw.newly_pressed_buttons_player1;
        if newly == Buttons::RIGHT.bits() {
            self.raw.game_type = 1;
        } else if newly == Buttons::LEFT.bits() {
            self.raw.game_type = 0;
        }
        if newly == Buttons::DOWN.bits() && self.raw.music_type != 3 {
            self.raw.music_type = self.raw.music_type.wrapping_add(1);
            self.set_music_track(
                crate::tables::MUSIC_SELECTION_TABLE[usize::from(self.raw.music_type & 7)],
            );
        }
        if newly == Buttons::UP.bits() && self.raw.music_type != 0 {
            self.raw.music_type = self.raw.music_type.wrapping_sub(1);
            self.set_music_track(
                crate::tables::MUSIC_SELECTION_TABLE[usize::from(self.raw.music_type & 7)],
            );
        }
        if newly == START {
            self.raw.game_mode += 1;
            return Flow::Ret(0x02);
        }
        if newly == Buttons::B.bits() {
            self.raw.frame_counter &= 0x00FF;
            self.raw.game_mode = self.raw.game_mode.wrapping_sub(1);
            return Flow::Ret(0x00);
        }
        Flow::Wait(Wait::GameTypeMenu)
    }

    /// `gameMode_levelMenu`: up to the copy of the screen.
    pub(crate) fn game_mode_level_menu(&mut self) -> Flow {
        self.update_audio2();
        self.raw.render_mode = 1;
        Flow::Wait(Wait::LoadDisable(Screen::LevelMenu))
    }

    /// One pass of `gameMode_levelMenu_processPlayer1Navigation`.
    pub(crate) fn level_menu_frame(&mut self) -> Flow {
        self.raw.active_player = 0;
        self.raw.player.start_level = self.raw.player1.start_level;
        self.raw.player.start_height = self.raw.player1.start_height;
        self.raw.selecting_level_or_height = self.raw.original_y;
        self.raw.newly_pressed_buttons = self.raw.newly_pressed_buttons_player1;
        self.handle_level_height_navigation();
        self.raw.player1.start_level = self.raw.player.start_level;
        self.raw.player1.start_height = self.raw.player.start_height;
        self.raw.original_y = self.raw.selecting_level_or_height;
        let newly = self.raw.newly_pressed_buttons_player1;
        if newly == START {
            if self.raw.held_buttons_player1 == Buttons::A.bits() | START {
                self.raw.player1.start_level = self.raw.player1.start_level.wrapping_add(10);
            }
            self.raw.game_mode_state = 0;
            self.raw.game_mode += 1;
            return Flow::Ret(0x02);
        }
        if newly == Buttons::B.bits() {
            self.raw.game_mode = self.raw.game_mode.wrapping_sub(1);
            return Flow::Ret(0x02);
        }
        // @chooseRandomHole_player1 / _player2: step the RNG until its low nibble is 0-9.
        self.raw.player1.garbage_hole = self.choose_random_hole();
        self.raw.player2.garbage_hole = self.choose_random_hole();
        Flow::Wait(Wait::LevelMenu)
    }

    fn choose_random_hole(&mut self) -> u8 {
        loop {
            self.step_rng();
            let a = self.rng_high() & 0x0F;
            if a < 0x0A {
                return a;
            }
        }
    }

    /// `gameMode_levelMenu_handleLevelHeightNavigation` (the cursor sprites are not modelled).
    fn handle_level_height_navigation(&mut self) {
        let newly = self.raw.newly_pressed_buttons;
        let selecting_height = self.raw.selecting_level_or_height != 0;
        let level = &mut self.raw.player.start_level;
        let height = &mut self.raw.player.start_height;
        if newly == Buttons::RIGHT.bits() {
            if selecting_height {
                if *height != 5 {
                    *height = height.wrapping_add(1);
                }
            } else if *level != 9 {
                *level = level.wrapping_add(1);
            }
        }
        if newly == Buttons::LEFT.bits() {
            if selecting_height {
                if *height != 0 {
                    *height = height.wrapping_sub(1);
                }
            } else if *level != 0 {
                *level = level.wrapping_sub(1);
            }
        }
        if newly == Buttons::DOWN.bits() {
            if selecting_height {
                if (height.wrapping_sub(3) as i8) < 0 {
                    *height = height.wrapping_add(3);
                }
            } else if (level.wrapping_sub(5) as i8) < 0 {
                *level = level.wrapping_add(5);
            }
        }
        if newly == Buttons::UP.bits() {
            if selecting_height {
                if (height.wrapping_sub(3) as i8) >= 0 {
                    *height = height.wrapping_sub(3);
                }
            } else if (level.wrapping_sub(5) as i8) >= 0 {
                *level = level.wrapping_sub(5);
            }
        }
        if self.raw.game_type != 0 && newly == Buttons::A.bits() {
            self.raw.selecting_level_or_height ^= 1;
        }
    }
}
