//! The 32 bytes of per-player game state: the working copy at $40 and the saved copies at $60
//! (player 1) and $80 (player 2). `makePlayer1Active` copies $60 to $40 before the player's
//! update and `savePlayer1State` copies it back, so both are kept here, byte for byte.

/// One copy of the player block (`tetriminoX` .. `garbageHole` and the unused bytes after it).
///
/// Laid out as the ROM's 32 bytes: the bytes written in most frames of play come first, so the
/// 16 bytes after them are rarely stored one by one just before the block is read whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct PlayerVars {
    /// `tetriminoX` (+$00): column of the piece's centre, 0-9.
    pub tetrimino_x: u8,
    /// `tetriminoY` (+$01): row of the piece's centre, 0-19.
    pub tetrimino_y: u8,
    /// `currentPiece` (+$02): orientation id ($00-$12, $13 = hidden).
    pub current_piece: u8,
    /// (+$03) unused.
    pub unused_03: u8,
    /// `levelNumber` (+$04).
    pub level_number: u8,
    /// `fallTimer` (+$05): frames since the last drop; compared signed with the drop speed.
    pub fall_timer: u8,
    /// `autorepeatX` (+$06): the DAS counter.
    pub autorepeat_x: u8,
    /// `startLevel` (+$07).
    pub start_level: u8,
    /// `playState` (+$08).
    pub play_state: u8,
    /// `vramRow` (+$09): next playfield row the NMI copies to the screen; 32 = done.
    pub vram_row: u8,
    /// `completedRow` (+$0A): rows cleared by the last lock (0 = none).
    pub completed_row: [u8; 4],
    /// `autorepeatY` (+$0E): soft-drop counter; negative during the opening delay.
    pub autorepeat_y: u8,
    /// `holdDownPoints` (+$0F): rows soft-dropped, for push-down points.
    pub hold_down_points: u8,
    /// `lines` (+$10): BCD, low byte first.
    pub lines: [u8; 2],
    /// `rowY` (+$12): step of the line-clear animation.
    pub row_y: u8,
    /// `score` (+$13): BCD, low byte first.
    pub score: [u8; 3],
    /// `completedLines` (+$16).
    pub completed_lines: u8,
    /// `lineIndex` (+$17).
    pub line_index: u8,
    /// `curtainRow` (+$18).
    pub curtain_row: u8,
    /// `startHeight` (+$19).
    pub start_height: u8,
    /// `garbageHole` (+$1A).
    pub garbage_hole: u8,
    /// (+$1B-$1F) unused.
    pub unused_1b: [u8; 5],
}

impl PlayerVars {
    /// The block as the 32 bytes the ROM keeps.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[0] = self.tetrimino_x;
        b[1] = self.tetrimino_y;
        b[2] = self.current_piece;
        b[3] = self.unused_03;
        b[4] = self.level_number;
        b[5] = self.fall_timer;
        b[6] = self.autorepeat_x;
        b[7] = self.start_level;
        b[8] = self.play_state;
        b[9] = self.vram_row;
        b[0x0A..0x0E].copy_from_slice(&self.completed_row);
        b[0x0E] = self.autorepeat_y;
        b[0x0F] = self.hold_down_points;
        b[0x10..0x12].copy_from_slice(&self.lines);
        b[0x12] = self.row_y;
        b[0x13..0x16].copy_from_slice(&self.score);
        b[0x16] = self.completed_lines;
        b[0x17] = self.line_index;
        b[0x18] = self.curtain_row;
        b[0x19] = self.start_height;
        b[0x1A] = self.garbage_hole;
        b[0x1B..0x20].copy_from_slice(&self.unused_1b);
        b
    }

    /// The block from the 32 bytes the ROM keeps.
    #[must_use]
    pub fn from_bytes(b: &[u8; 32]) -> Self {
        PlayerVars {
            tetrimino_x: b[0],
            tetrimino_y: b[1],
            current_piece: b[2],
            unused_03: b[3],
            level_number: b[4],
            fall_timer: b[5],
            autorepeat_x: b[6],
            start_level: b[7],
            play_state: b[8],
            vram_row: b[9],
            completed_row: [b[0x0A], b[0x0B], b[0x0C], b[0x0D]],
            autorepeat_y: b[0x0E],
            hold_down_points: b[0x0F],
            lines: [b[0x10], b[0x11]],
            row_y: b[0x12],
            score: [b[0x13], b[0x14], b[0x15]],
            completed_lines: b[0x16],
            line_index: b[0x17],
            curtain_row: b[0x18],
            start_height: b[0x19],
            garbage_hole: b[0x1A],
            unused_1b: [b[0x1B], b[0x1C], b[0x1D], b[0x1E], b[0x1F]],
        }
    }

    /// `lines` as a number (the BCD digits read as decimal, high byte as hundreds).
    #[must_use]
    pub fn lines_decimal(&self) -> u32 {
        bcd(self.lines[1]) * 100 + bcd(self.lines[0])
    }

    /// `score` as a number.
    #[must_use]
    pub fn score_decimal(&self) -> u32 {
        bcd(self.score[2]) * 10_000 + bcd(self.score[1]) * 100 + bcd(self.score[0])
    }
}

/// Reads one BCD byte as decimal. Digits above 9 (which the ROM can produce) count at face value.
#[must_use]
pub const fn bcd(b: u8) -> u32 {
    (b >> 4) as u32 * 10 + (b & 0x0F) as u32
}
