//! NES colours: the ROM's per-level palette and an RGB rendering of the NES master palette.

use ratatui::style::Color;

/// `colorTable` ($984C): the background palette of the playfield for levels 0-9 (the game uses
/// `levelNumber mod 10`). Bytes: backdrop, colour 1, colour 2, colour 3.
pub const COLOR_TABLE: [[u8; 4]; 10] = [
    [0x0F, 0x30, 0x21, 0x12],
    [0x0F, 0x30, 0x29, 0x1A],
    [0x0F, 0x30, 0x24, 0x14],
    [0x0F, 0x30, 0x2A, 0x12],
    [0x0F, 0x30, 0x2B, 0x15],
    [0x0F, 0x30, 0x22, 0x2B],
    [0x0F, 0x30, 0x00, 0x16],
    [0x0F, 0x30, 0x05, 0x13],
    [0x0F, 0x30, 0x16, 0x12],
    [0x0F, 0x30, 0x27, 0x16],
];

/// The 2C02's 64 colours as sRGB. The NES generates composite video, not RGB, so every table is
/// an approximation; this one is a common, neutral choice (the "2C02" palette of several emulators).
const NES_RGB: [(u8, u8, u8); 64] = [
    (84, 84, 84),
    (0, 30, 116),
    (8, 16, 144),
    (48, 0, 136),
    (68, 0, 100),
    (92, 0, 48),
    (84, 4, 0),
    (60, 24, 0),
    (32, 42, 0),
    (8, 58, 0),
    (0, 64, 0),
    (0, 60, 0),
    (0, 50, 60),
    (0, 0, 0),
    (0, 0, 0),
    (0, 0, 0),
    (152, 150, 152),
    (8, 76, 196),
    (48, 50, 236),
    (92, 30, 228),
    (136, 20, 176),
    (160, 20, 100),
    (152, 34, 32),
    (120, 60, 0),
    (84, 90, 0),
    (40, 114, 0),
    (8, 124, 0),
    (0, 118, 40),
    (0, 102, 120),
    (0, 0, 0),
    (0, 0, 0),
    (0, 0, 0),
    (236, 238, 236),
    (76, 154, 236),
    (120, 124, 236),
    (176, 98, 236),
    (228, 84, 236),
    (236, 88, 180),
    (236, 106, 100),
    (212, 136, 32),
    (160, 170, 0),
    (116, 196, 0),
    (76, 208, 32),
    (56, 204, 108),
    (56, 180, 204),
    (60, 60, 60),
    (0, 0, 0),
    (0, 0, 0),
    (236, 238, 236),
    (168, 204, 236),
    (188, 188, 236),
    (212, 178, 236),
    (236, 174, 236),
    (236, 174, 212),
    (236, 180, 176),
    (228, 196, 144),
    (204, 210, 120),
    (180, 222, 120),
    (168, 226, 144),
    (152, 226, 180),
    (160, 214, 228),
    (160, 162, 160),
    (0, 0, 0),
    (0, 0, 0),
];

/// The RGB colour of NES palette index `index` (only the low 6 bits select a colour, as on the PPU).
#[must_use]
pub fn nes_rgb(index: u8) -> Color {
    let (r, g, b) = NES_RGB[usize::from(index & 0x3F)];
    Color::Rgb(r, g, b)
}

/// The four colours of the playfield at `level`.
#[must_use]
pub fn level_colors(level: u8) -> [Color; 4] {
    COLOR_TABLE[usize::from(level % 10)].map(nes_rgb)
}
