//! After a game: `handleHighScoreIfNecessary` and `highScoreEntryScreen`.

use crate::engine::{Flow, Nes, Wait};
use crate::screens::Screen;
use crate::vocabulary::buttons::Buttons;

impl Nes {
    /// `handleHighScoreIfNecessary`: finds the first row the score beats (ties go to the new
    /// score), shifts the rows below, and opens the name entry; otherwise resets the game.
    pub(crate) fn handle_high_score_if_necessary(&mut self) -> Flow {
        let mut raw_pos: u8 = if self.raw.game_type != 0 { 4 } else { 0 };
        let score = self.raw.player1.score;
        loop {
            let y = usize::from(raw_pos) * 3;
            let table = [
                self.raw.high_score_scores[y],
                self.raw.high_score_scores[y + 1],
                self.raw.high_score_scores[y + 2],
            ];
            let beats = [table[0], table[1], table[2]] <= [score[2], score[1], score[0]];
            if beats {
                break;
            }
            raw_pos += 1;
            if raw_pos == 3 || raw_pos == 7 {
                self.raw.high_score_entry_raw_pos = raw_pos;
                return self.reset_game_state();
            }
        }
        self.raw.high_score_entry_raw_pos = raw_pos;
        self.adjust_high_scores(raw_pos);
        self.set_music_track(0x09);
        self.raw.render_mode = 2;
        Flow::Wait(Wait::LoadDisable(Screen::HighScoreEntry))
    }

    /// `adjustHighScores`: moves the rows below down one and writes the new row, name blank.
    fn adjust_high_scores(&mut self, raw_pos: u8) {
        let type_b = self.raw.game_type != 0;
        if raw_pos & 3 < 2 {
            self.copy_high_score_to_next_index(1, type_b);
            if raw_pos & 3 == 0 {
                self.copy_high_score_to_next_index(0, type_b);
            }
        }
        let name = usize::from(raw_pos) * 6;
        self.raw.high_score_names[name..name + 6].fill(0);
        let s = usize::from(raw_pos) * 3;
        let score = self.raw.player1.score;
        self.raw.high_score_scores[s..s + 3].copy_from_slice(&[score[2], score[1], score[0]]);
        self.raw.high_score_levels[usize::from(raw_pos)] = self.raw.player1.level_number;
    }

    /// `copyHighScoreNameToNextIndex`, `copyHighScoreScoreToNextIndex` and
    /// `copyHighScoreLevelToNextIndex` for one row.
    fn copy_high_score_to_next_index(&mut self, row: usize, type_b: bool) {
        let row = row + if type_b { 4 } else { 0 };
        let name = row * 6;
        self.raw
            .high_score_names
            .copy_within(name..name + 6, name + 6);
        let score = row * 3;
        self.raw
            .high_score_scores
            .copy_within(score..score + 3, score + 3);
        self.raw.high_score_levels[row + 1] = self.raw.high_score_levels[row];
    }

    /// `highScoreEntryScreen` once the screen is on.
    pub(crate) fn high_score_entry_start(&mut self) -> Flow {
        self.raw.high_score_entry_name_offset_for_row =
            self.raw.high_score_entry_raw_pos.wrapping_mul(6);
        self.raw.high_score_entry_name_offset_for_letter = 0;
        self.high_score_entry_frame()
    }

    /// One pass of `@renderFrame`: Start ends the entry; A/Right and B/Left move the cursor;
    /// Down/Up held change the letter every eighth frame.
    pub(crate) fn high_score_entry_frame(&mut self) -> Flow {
        let newly = self.raw.newly_pressed_buttons_player1;
        let held = self.raw.held_buttons_player1;
        if newly & Buttons::START.bits() != 0 {
            return Flow::Wait(Wait::HighScoreDone);
        }
        let letter = &mut self.raw.high_score_entry_name_offset_for_letter;
        if newly & (Buttons::A.bits() | Buttons::RIGHT.bits()) != 0 {
            *letter = letter.wrapping_add(1);
            if (letter.wrapping_sub(6) as i8) >= 0 {
                *letter = 0;
            }
        }
        if newly & (Buttons::B.bits() | Buttons::LEFT.bits()) != 0 {
            *letter = letter.wrapping_sub(1);
            if (*letter as i8) < 0 {
                *letter = 5;
            }
        }
        let x = usize::from(
            self.raw
                .high_score_entry_name_offset_for_row
                .wrapping_add(self.raw.high_score_entry_name_offset_for_letter),
        ) % self.raw.high_score_names.len();
        if held & Buttons::DOWN.bits() != 0 && self.raw.frame_counter & 7 == 0 {
            let mut v = self.raw.high_score_names[x].wrapping_sub(1);
            if (v as i8) < 0 {
                v = v.wrapping_add(0x2C);
            }
            self.raw.high_score_names[x] = v;
        }
        if held & Buttons::UP.bits() != 0 && self.raw.frame_counter & 7 == 0 {
            let mut v = self.raw.high_score_names[x].wrapping_add(1);
            if (v.wrapping_sub(0x2C) as i8) >= 0 {
                v = v.wrapping_sub(0x2C);
            }
            self.raw.high_score_names[x] = v;
        }
        self.raw.high_score_entry_current_letter = self.raw.high_score_names[x];
        self.raw.out_of_date_render_flags = 0x80;
        Flow::Wait(Wait::HighScoreEntry)
    }
}
