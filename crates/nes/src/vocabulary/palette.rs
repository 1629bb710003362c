//! The game's colours for front ends: the NES's 64 colours as sRGB, and the playfield's colours
//! at a level (the ROM's [`COLOR_TABLE`] through them). The terminal view and the web page both
//! draw with these.

use crate::tables::COLOR_TABLE;

/// The 2C02's 64 colours as sRGB, `0xRRGGBB`. The NES makes composite video, not RGB, so every
/// such table is an approximation; this is a common, neutral one (the "2C02" palette of several
/// emulators).
pub const NES_RGB: [u32; 64] = [
    0x545454, 0x001E74, 0x081090, 0x300088, 0x440064, 0x5C0030, 0x540400, 0x3C1800, 0x202A00,
    0x083A00, 0x004000, 0x003C00, 0x00323C, 0x000000, 0x000000, 0x000000, 0x989698, 0x084CC4,
    0x3032EC, 0x5C1EE4, 0x8814B0, 0xA01464, 0x982220, 0x783C00, 0x545A00, 0x287200, 0x087C00,
    0x007628, 0x006678, 0x000000, 0x000000, 0x000000, 0xECEEEC, 0x4C9AEC, 0x787CEC, 0xB062EC,
    0xE454EC, 0xEC58B4, 0xEC6A64, 0xD48820, 0xA0AA00, 0x74C400, 0x4CD020, 0x38CC6C, 0x38B4CC,
    0x3C3C3C, 0x000000, 0x000000, 0xECEEEC, 0xA8CCEC, 0xBCBCEC, 0xD4B2EC, 0xECAEEC, 0xECAED4,
    0xECB4B0, 0xE4C490, 0xCCD278, 0xB4DE78, 0xA8E290, 0x98E2B4, 0xA0D6E4, 0xA0A2A0, 0x000000,
    0x000000,
];

/// NES palette entry `index` as `[red, green, blue]` (only the low 6 bits select a colour, as on
/// the PPU).
#[must_use]
pub const fn nes_rgb(index: u8) -> [u8; 3] {
    let rgb = NES_RGB[(index & 0x3F) as usize];
    [(rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8]
}

/// The playfield's four colours at `level` (`colorTable[levelNumber mod 10]`): backdrop, colour
/// 1 (the white of `tile1`), colour 2 and colour 3, as NES palette indices.
#[must_use]
pub const fn level_palette(level: u8) -> [u8; 4] {
    COLOR_TABLE[(level % 10) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_colours_repeat_every_ten_levels() {
        assert_eq!(level_palette(0), [0x0F, 0x30, 0x21, 0x12]);
        assert_eq!(level_palette(19), level_palette(9));
        assert_eq!(level_palette(255), level_palette(5));
        // Black backdrop, white colour 1.
        assert_eq!(nes_rgb(0x0F), [0, 0, 0]);
        assert_eq!(nes_rgb(0x30), [0xEC, 0xEE, 0xEC]);
        assert_eq!(nes_rgb(0x30 | 0xC0), nes_rgb(0x30));
    }
}
