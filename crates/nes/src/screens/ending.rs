//! The endings: the A-type rocket (score ≥ 30,000 when the curtain is down) and the B-type
//! bonus count after 25 lines (`endingAnimation`, `render_endingUnskippable`, `add100Points`).
//!
//! The B-type animations (concert, cathedral) only move sprites; their variables
//! (`ending_customVars` for type B) are not modelled, since nothing the game decides depends on
//! them: the B-type ending waits for Start alone.

use crate::engine::{Flow, Nes, Wait};
use crate::screens::{EndingStep, Screen};
use crate::tables::LEVEL_DISPLAY_TABLE;
use crate::vocabulary::buttons::Buttons;

/// `typebSuccessGraphic` ($9F2E): the "SUCCESS" box drawn into rows 7-9 of the playfield.
const TYPE_B_SUCCESS_GRAPHIC: [u8; 30] = [
    0x38, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x39, 0x3A, 0x3B, 0x1C, 0x1E, 0x0C, 0x0C, 0x0E,
    0x1C, 0x1C, 0x28, 0x3C, 0x3D, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3F,
];

/// `LAA2A`: the rocket's starting height by ending (0-4).
const ROCKET_START: [u8; 5] = [0xBF, 0xBF, 0xBF, 0xBF, 0xC7];

impl Nes {
    /// The curtain is down with a score ≥ 30,000: `sleep_for_a_vblanks` then `endingAnimation`.
    pub(crate) fn start_type_a_ending(&mut self) -> Flow {
        self.raw.sleep_counter = self.region.ending_sleep_time(1);
        Flow::Wait(Wait::EndingSleep)
    }

    /// `playState_bTypeGoalCheck` once `lines` reaches 0: the success box, two sleeps, the ending.
    pub(crate) fn start_type_b_ending(&mut self) -> Flow {
        self.set_music_track(0x02);
        self.raw.playfield[0x46..0x46 + TYPE_B_SUCCESS_GRAPHIC.len()]
            .copy_from_slice(&TYPE_B_SUCCESS_GRAPHIC);
        self.raw.player1.vram_row = 0;
        // sleep_for_14_vblanks sets the counter to $14: twenty frames.
        self.raw.sleep_counter = 0x14;
        Flow::Wait(Wait::BTypeSuccessSleep)
    }

    /// After `sleep_for_14_vblanks`: the screen goes dark for `sleep_for_a_vblanks($80)`.
    pub(crate) fn b_type_success_slept(&mut self) -> Flow {
        if self.raw.sleep_counter != 0 {
            return Flow::Wait(Wait::BTypeSuccessSleep);
        }
        self.raw.render_mode = 0;
        self.raw.sleep_counter = 0x80;
        Flow::Wait(Wait::EndingSleep)
    }

    /// After the sleep before either ending: `endingAnimation` up to its screen copy.
    pub(crate) fn ending_sleep(&mut self) -> Flow {
        if self.raw.sleep_counter != 0 {
            return Flow::Wait(Wait::EndingSleep);
        }
        self.raw.render_mode = 4;
        if self.raw.game_type == 0 {
            return Flow::Wait(Wait::LoadDisable(Screen::EndingA));
        }
        // endingAnimationB: the level shown is the level's last digit; bonuses are BCD.
        let level = self.raw.player1.level_number;
        self.raw.player.level_number = LEVEL_DISPLAY_TABLE
            .get(usize::from(level))
            .map_or(level, |&d| d & 0x0F);
        self.raw.total_score = [0; 3];
        self.raw.general_counter4 = self.raw.player.level_number << 4;
        self.raw.general_counter5 = self.raw.player1.start_height << 4;
        Flow::Wait(Wait::LoadDisable(Screen::EndingB))
    }

    /// `selectEndingScreen`, run while the type-A ending screen is copied.
    pub(crate) fn select_ending_screen(&mut self) {
        let top = self.raw.player1.score[2];
        self.raw.ending = match top {
            0..0x05 => 0,
            0x05..0x07 => 1,
            0x07..0x10 => 2,
            0x10..0x12 => 3,
            _ => 4,
        };
        self.raw.ending_custom_vars[0] = ROCKET_START[usize::from(self.raw.ending)];
        self.raw.ending_custom_vars[1] = 0;
    }

    /// Either ending once its screen is on.
    pub(crate) fn ending_screen_on(&mut self) -> Flow {
        self.raw.render_mode = 4;
        self.set_music_track(0x0A);
        let step = if self.raw.game_type == 0 {
            EndingStep::TypeA
        } else {
            EndingStep::TypeBScore
        };
        self.render_ending_unskippable(self.region.ending_sleep_time(1), step)
    }

    /// `render_endingUnskippable`: animate for `frames` frames; Start does nothing.
    fn render_ending_unskippable(&mut self, frames: u8, step: EndingStep) -> Flow {
        self.raw.sleep_counter = frames;
        self.render_ending();
        Flow::Wait(Wait::EndingUnskippable(step))
    }

    /// One wait of `render_endingUnskippable` is over.
    pub(crate) fn ending_unskippable_waited(&mut self, step: EndingStep) -> Flow {
        if self.raw.sleep_counter != 0 {
            self.render_ending();
            return Flow::Wait(Wait::EndingUnskippable(step));
        }
        let short = self.region.ending_sleep_time(2);
        match step {
            EndingStep::TypeA | EndingStep::TypeBAfterHeightBonus => self.ending_loop(),
            EndingStep::TypeBScore => {
                self.raw.total_score = self.raw.player1.score;
                self.raw.player1.score = [0; 3];
                self.score_uncapped = crate::vocabulary::modifiers::UncappedScore::default();
                self.render_ending_unskippable(short, EndingStep::TypeBBeforeLevelBonus)
            }
            EndingStep::TypeBBeforeLevelBonus => {
                if self.raw.general_counter4 == 0 {
                    self.height_bonus()
                } else {
                    self.level_bonus_step()
                }
            }
            EndingStep::TypeBLevelBonus => {
                if self.raw.general_counter4 != 0 {
                    self.level_bonus_step()
                } else {
                    self.render_ending_unskippable(short, EndingStep::TypeBAfterLevelBonus)
                }
            }
            EndingStep::TypeBAfterLevelBonus => self.height_bonus(),
            EndingStep::TypeBHeightBonus => {
                if self.raw.general_counter5 != 0 {
                    self.height_bonus_step()
                } else {
                    self.render_ending_unskippable(short, EndingStep::TypeBAfterHeightBonus)
                }
            }
        }
    }

    fn height_bonus(&mut self) -> Flow {
        if self.raw.general_counter5 == 0 {
            return self.ending_loop();
        }
        self.height_bonus_step()
    }

    /// One step of `@addLevelBonus`: count the BCD bonus down, 100 points, two frames.
    fn level_bonus_step(&mut self) -> Flow {
        self.raw.general_counter4 = bcd_decrement(self.raw.general_counter4);
        self.add_100_points();
        self.render_ending_unskippable(
            self.region.ending_sleep_time(3),
            EndingStep::TypeBLevelBonus,
        )
    }

    /// One step of `@addHeightBonus`.
    fn height_bonus_step(&mut self) -> Flow {
        self.raw.general_counter5 = bcd_decrement(self.raw.general_counter5);
        self.add_100_points();
        self.render_ending_unskippable(
            self.region.ending_sleep_time(3),
            EndingStep::TypeBHeightBonus,
        )
    }

    /// `add100Points` to `totalScore`, with the ROM's BCD fix-ups.
    fn add_100_points(&mut self) {
        let t = &mut self.raw.total_score;
        t[1] = t[1].wrapping_add(1);
        let mut a = t[1] & 0x0F;
        if a >= 0x0A {
            t[1] = t[1].wrapping_add(6);
            a = t[1];
        }
        if a & 0xF0 >= 0xA0 {
            t[1] = t[1].wrapping_add(0x60);
            t[2] = t[2].wrapping_add(1);
        }
        if t[2] & 0x0F >= 0x0A {
            t[2] = t[2].wrapping_add(6);
        }
    }

    /// The last loop of either ending: animate and wait for Start (type A: once the rocket is up).
    fn ending_loop(&mut self) -> Flow {
        self.render_ending();
        Flow::Wait(Wait::EndingLoop)
    }

    /// One wait of the last loop is over.
    pub(crate) fn ending_loop_waited(&mut self) -> Flow {
        let type_a = self.raw.game_type == 0;
        if (type_a && self.raw.ending_custom_vars[0] != 0)
            || self.raw.newly_pressed_buttons_player1 != Buttons::START.bits()
        {
            return self.ending_loop();
        }
        if type_a {
            // @exitGame of playState_updateGameOverCurtain.
            self.raw.player.play_state = 0;
            self.raw.newly_pressed_buttons_player1 = 0;
        } else {
            self.raw.player.level_number = self.raw.player1.level_number;
            self.raw.player.score = self.raw.total_score;
            // The rest of playState_bTypeGoalCheck.
            self.raw.player.play_state = 0;
            self.raw.game_mode_state = self.raw.game_mode_state.wrapping_add(1);
        }
        self.finish_update_player1()
    }

    /// `render_ending`: only the type-A rocket has state the game reads.
    fn render_ending(&mut self) {
        if self.raw.game_type != 0 {
            return;
        }
        // ending_typeA: the rocket waits $F0 frames, then climbs (every other frame while high).
        let vars = &mut self.raw.ending_custom_vars;
        if vars[0] == 0 {
            return;
        }
        if vars[1] != 0xF0 {
            vars[1] = vars[1].wrapping_add(1);
            return;
        }
        if vars[0] >= 0xB0 && self.raw.frame_counter & 1 != 0 {
            return;
        }
        vars[0] = vars[0].wrapping_sub(1);
        if vars[0] < 0x80 {
            vars[0] = vars[0].wrapping_sub(1);
        }
    }
}

/// The ending's BCD countdown: `dec`, and a low digit of F becomes 9.
fn bcd_decrement(v: u8) -> u8 {
    let v = v.wrapping_sub(1);
    if v & 0x0F == 0x0F {
        (v & 0xF0) | 0x09
    } else {
        v
    }
}
