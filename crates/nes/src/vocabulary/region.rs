//! NTSC (the USA ROM, checked against the real thing) and PAL (from the disassembly's PAL build;
//! no PAL ROM is available to check it).

use crate::screens::Screen;
use crate::tables::{FRAMES_PER_DROP_NTSC, FRAMES_PER_DROP_PAL};

/// Which build of the game the engine runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Region {
    /// Tetris (USA), 60.0988 frames/s. Checked frame by frame against the ROM.
    #[default]
    Ntsc,
    /// The PAL build's timing constants (gravity, DAS, opening delay). Not checked against a ROM.
    Pal,
}

impl Region {
    /// `framesPerDropTable`.
    #[must_use]
    pub const fn frames_per_drop(self) -> &'static [u8; 30] {
        match self {
            Region::Ntsc => &FRAMES_PER_DROP_NTSC,
            Region::Pal => &FRAMES_PER_DROP_PAL,
        }
    }

    /// `@lookupDropSpeed`: frames per row at `level`, 1 from level 29 on.
    #[inline]
    #[must_use]
    pub const fn drop_speed(self, level: u8) -> u8 {
        if level >= 0x1D {
            1
        } else {
            self.frames_per_drop()[level as usize]
        }
    }

    /// `DAS_DELAY`: where the DAS counter restarts after an auto-shift.
    #[must_use]
    pub const fn das_delay(self) -> u8 {
        match self {
            Region::Ntsc => 0x0A,
            Region::Pal => 0x08,
        }
    }

    /// `DAS_RESET`: the DAS counter value that shifts.
    #[must_use]
    pub const fn das_reset(self) -> u8 {
        match self {
            Region::Ntsc => 0x10,
            Region::Pal => 0x0C,
        }
    }

    /// `INITIAL_AUTOREPEAT_Y`: the opening delay, as a negative count.
    #[must_use]
    pub const fn initial_autorepeat_y(self) -> u8 {
        match self {
            Region::Ntsc => 0xA0,
            Region::Pal => 0xB4,
        }
    }

    /// `LEGAL_SLEEP_TIME`.
    #[must_use]
    pub const fn legal_sleep_time(self) -> u8 {
        match self {
            Region::Ntsc => 0xFF,
            Region::Pal => 0xCC,
        }
    }

    /// `ENDING_SLEEP_TIME_1`, `_2` and `_3`.
    #[must_use]
    pub const fn ending_sleep_time(self, which: u8) -> u8 {
        match (self, which) {
            (Region::Ntsc, 1) => 0x80,
            (Region::Ntsc, 2) => 0x40,
            (Region::Ntsc, _) => 0x02,
            (Region::Pal, 1) => 0x66,
            (Region::Pal, 2) => 0x33,
            (Region::Pal, _) => 0x01,
        }
    }

    /// Frames per second of the console.
    #[must_use]
    pub const fn frames_per_second(self) -> f64 {
        match self {
            Region::Ntsc => 60.0988,
            Region::Pal => 50.007,
        }
    }

    /// Frames from power-on without an NMI: the reset code's two vblank waits and the clearing of
    /// RAM and the nametables. The RNG is seeded in the last of them. Measured in the ROM under
    /// the FCEUX timeline (FCEUX idles the PPU one frame longer at power-on than tetanes-core,
    /// see `playfield-rom`): the state after 4 input lines shows `rng_seed` = $8988, and the first
    /// NMI runs in frame 5.
    pub(crate) const fn frames_before_first_nmi(self) -> u16 {
        4
    }

    /// NMIs missed while `initRam` clears the four nametables with the NMI off. Measured likewise.
    pub(crate) const fn nmis_missed_clearing_nametables(self) -> u8 {
        1
    }

    /// NMIs missed while a screen is copied with the NMI disabled. Measured in tetanes-core: the
    /// copies that also draw the high-score table (level menu, name entry) outlast a frame.
    pub(crate) const fn nmis_missed_while_loading(self, screen: Screen, game_type: u8) -> u8 {
        let _ = game_type;
        match screen {
            Screen::LevelMenu | Screen::HighScoreEntry => 1,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drop_speed_reads_the_table_then_stays_at_one_row_a_frame() {
        for region in [Region::Ntsc, Region::Pal] {
            for level in 0..=0x1C {
                assert_eq!(
                    region.drop_speed(level),
                    region.frames_per_drop()[usize::from(level)]
                );
            }
            for level in 0x1D..=0xFF {
                assert_eq!(region.drop_speed(level), 1, "{region:?} level {level}");
            }
        }
        assert_eq!(Region::Ntsc.drop_speed(0), 48);
        assert_eq!(Region::Ntsc.drop_speed(18), 3);
    }
}
