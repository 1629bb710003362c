//! NES colours as terminal colours (the tables are `playfield_nes::palette`'s).

use playfield_nes::palette::{level_palette, nes_rgb as rgb};
use ratatui::style::Color;

/// The terminal colour of NES palette index `index`.
#[must_use]
pub fn nes_rgb(index: u8) -> Color {
    let [r, g, b] = rgb(index);
    Color::Rgb(r, g, b)
}

/// The four colours of the playfield at `level`.
#[must_use]
pub fn level_colors(level: u8) -> [Color; 4] {
    level_palette(level).map(nes_rgb)
}
