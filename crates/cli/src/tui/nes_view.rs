//! The NES Tetris screen drawn from the engine's typed view: playfield in the level's ROM
//! colours, the falling piece, next piece, statistics, top score, score, lines, level, PAUSE.

use playfield_nes::tables::{ORIENTATION_HIDDEN, ORIENTATIONS, TILE_EMPTY, TILE1, TILE2, TILE3};
use playfield_nes::{GameMode, GameType, Nes, RenderMode};
use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::palette::level_colors;

/// The smallest terminal the view fits in: statistics (18) + playfield (22) + info (22) columns,
/// 22 rows of playfield plus 2 status rows.
pub const MIN_WIDTH: u16 = 62;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 24;

/// The piece types in the order of `statsByType` (T J Z O S L I) with the spawn orientation used
/// to draw each.
const TYPES: [(char, u8); 7] = [
    ('T', 0x02),
    ('J', 0x07),
    ('Z', 0x08),
    ('O', 0x0A),
    ('S', 0x0B),
    ('L', 0x0E),
    ('I', 0x12),
];

/// What to draw besides the engine state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overlay<'a> {
    /// Who is playing, shown under the next piece.
    pub title: &'a str,
    /// The bottom status line (speed, keys).
    pub status: &'a str,
    /// Cells (x 0-9, y 0-19) where the player means to lock the current piece, drawn outlined.
    pub target: Option<[(i16, i16); 4]>,
}

/// One playfield cell: two terminal columns styled like the ROM's tile.
fn tile_span(tile: u8, colors: &[Color; 4]) -> Span<'static> {
    match tile {
        // $7B: white block with a rim in colour 2 (T, O, I).
        TILE1 => Span::styled("[]", Style::default().fg(colors[2]).bg(colors[1])),
        // $7C: solid colour 2 (Z, L); $7D: solid colour 3 (J, S).
        TILE2 => Span::styled("  ", Style::default().bg(colors[2])),
        TILE3 => Span::styled("  ", Style::default().bg(colors[3])),
        // $4F: the game-over curtain.
        0x4F => Span::styled("▒▒", Style::default().fg(Color::Gray).bg(colors[0])),
        _ => Span::styled("  ", Style::default().bg(colors[0])),
    }
}

/// True while the game is paused (the pause loop runs with `renderMode` 0 in play mode).
#[must_use]
pub fn is_paused(nes: &Nes) -> bool {
    nes.game_mode() == GameMode::Play && nes.render_mode() == RenderMode::LegalAndTitle
}

/// The falling piece's four cells and tile, when the ROM shows it (its sprite is drawn only while
/// the player controls it and the game is not paused).
fn falling_piece(nes: &Nes) -> Option<([(i16, i16); 4], u8)> {
    let piece = nes
        .active_piece()
        .filter(|_| nes.render_mode() == RenderMode::PlayAndDemo)?;
    let cells = piece.cells().map(|(x, y)| (i16::from(x), i16::from(y)));
    Some((cells, orientation_tile(piece.orientation.id())))
}

/// The tile an orientation's minos are drawn with (`orientationTable`).
fn orientation_tile(orientation: u8) -> u8 {
    ORIENTATIONS[usize::from(orientation.min(ORIENTATION_HIDDEN))][0].tile
}

/// A piece in a 4×3 box (previews and statistics), one line per row.
fn piece_lines(orientation: u8, colors: &[Color; 4]) -> Vec<Line<'static>> {
    let minos = ORIENTATIONS[usize::from(orientation.min(ORIENTATION_HIDDEN))];
    (-1..=1)
        .map(|dy| {
            Line::from(
                (-2..=1)
                    .map(|dx| {
                        match minos
                            .iter()
                            .find(|m| i16::from(m.dx) == dx && i16::from(m.dy) == dy)
                        {
                            Some(m) => tile_span(m.tile, colors),
                            None => Span::raw("  "),
                        }
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

fn mode_message(nes: &Nes) -> Vec<Line<'static>> {
    let text = match nes.game_mode() {
        GameMode::Legal => "legal screen".to_owned(),
        GameMode::Title => "title screen\n\nEnter = Start".to_owned(),
        GameMode::GameTypeMenu => format!(
            "GAME TYPE\n\n{}\n\nMUSIC {}",
            match nes.game_type() {
                GameType::A => "> A-TYPE   B-TYPE",
                GameType::B => "  A-TYPE > B-TYPE",
            },
            nes.music_type()
                .number()
                .map_or_else(|| "OFF".to_owned(), |n| n.to_string())
        ),
        GameMode::LevelMenu => {
            format!("LEVEL\n\n{}\n\n(A + Start: +10)", nes.start_level())
        }
        _ => String::new(),
    };
    text.lines().map(|l| Line::from(l.to_owned())).collect()
}

/// Draws the whole screen, or a message when the terminal is too small for it.
pub fn draw(frame: &mut Frame<'_>, nes: &Nes, overlay: &Overlay<'_>) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!(
            "Terminal too small: {}×{}.\nThe NES view needs at least {MIN_WIDTH}×{MIN_HEIGHT}.\n\
             Enlarge the window, or press q to quit.",
            area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(msg)
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let [body, status] = Layout::vertical([Constraint::Length(22), Constraint::Min(1)]).areas(area);
    let [stats, board, info] = Layout::horizontal([
        Constraint::Length(18),
        Constraint::Length(22),
        Constraint::Length(22),
    ])
    .areas(body);
    let colors = level_colors(nes.level());
    let in_game = matches!(nes.game_mode(), GameMode::Play | GameMode::Demo);

    draw_stats(frame, nes, stats, &colors);
    draw_board(frame, nes, overlay, board, &colors, in_game);
    draw_info(frame, nes, overlay, info, &colors, in_game);
    frame.render_widget(
        Paragraph::new(overlay.status.to_owned()).wrap(Wrap { trim: true }),
        status,
    );
}

fn draw_stats(frame: &mut Frame<'_>, nes: &Nes, area: Rect, colors: &[Color; 4]) {
    let mut lines = Vec::new();
    for (t, &(name, orientation)) in TYPES.iter().enumerate() {
        let tile = ORIENTATIONS[usize::from(orientation)][0].tile;
        lines.push(Line::from(vec![
            Span::raw(format!("{name} ")),
            tile_span(tile, colors),
            Span::raw(format!("  {:03}", nes.piece_counts()[t])),
        ]));
        lines.push(Line::from(""));
    }
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(" STATISTICS ")),
        area,
    );
}

fn draw_board(
    frame: &mut Frame<'_>,
    nes: &Nes,
    overlay: &Overlay<'_>,
    area: Rect,
    colors: &[Color; 4],
    in_game: bool,
) {
    let block = Block::bordered().title(" NES Tetris ");
    if !in_game {
        let mut lines = vec![Line::from(""); 6];
        lines.extend(mode_message(nes));
        frame.render_widget(
            Paragraph::new(lines)
                .alignment(Alignment::Center)
                .block(block),
            area,
        );
        return;
    }
    let falling = falling_piece(nes);
    let paused = is_paused(nes);
    let mut lines = Vec::with_capacity(20);
    for y in 0..20i16 {
        if paused && y == 9 {
            // The ROM hides the piece and shows PAUSE; the board stays in place.
            lines.push(Line::from(Span::styled(
                "       PAUSE        ",
                Style::default()
                    .fg(Color::White)
                    .bg(colors[0])
                    .add_modifier(Modifier::BOLD),
            )));
            continue;
        }
        let mut spans = Vec::with_capacity(10);
        for x in 0..10i16 {
            let piece = falling.filter(|(cells, _)| cells.contains(&(x, y)));
            let tile = match piece {
                Some((_, tile)) => tile,
                None => nes.playfield_page()[(y * 10 + x) as usize],
            };
            let target = !paused && overlay.target.is_some_and(|t| t.contains(&(x, y)));
            if target && tile == TILE_EMPTY {
                spans.push(Span::styled(
                    "░░",
                    Style::default().fg(Color::White).bg(colors[0]),
                ));
            } else {
                spans.push(tile_span(tile, colors));
            }
        }
        lines.push(Line::from(spans));
    }
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn draw_info(
    frame: &mut Frame<'_>,
    nes: &Nes,
    overlay: &Overlay<'_>,
    area: Rect,
    colors: &[Color; 4],
    in_game: bool,
) {
    let mut lines = vec![
        Line::from("TOP"),
        Line::from(format!("{:06}", nes.top_score())),
        Line::from("SCORE"),
        Line::from(format!("{:06}", nes.score())),
        Line::from(""),
        Line::from(format!("LINES {:03}", nes.lines())),
        Line::from(format!("LEVEL {:02}", nes.level())),
        Line::from(""),
        Line::from("NEXT"),
    ];
    let preview = nes.next_orientation().filter(|_| nes.preview_shown());
    if let Some(next) = preview.filter(|_| in_game) {
        lines.extend(piece_lines(next.id(), colors));
    } else if in_game {
        lines.push(Line::from("(hidden: Select)"));
    }
    while lines.len() < 14 {
        lines.push(Line::from(""));
    }
    lines.push(Line::from("PLAYER"));
    lines.push(Line::from(overlay.title.trim().to_owned()));
    frame.render_widget(
        // No trimming: the preview's leading blank cells position the piece.
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered()),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::palette::nes_rgb;
    use playfield_nes::raw::{game_mode, play_state};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;

    /// The board's first cell column and row on screen: statistics (18 wide) + border.
    const BOARD_X: u16 = 19;
    const BOARD_Y: u16 = 1;

    /// A mid-game state: level 0, three locked minos on the bottom row, a T falling at the top.
    fn game() -> Nes {
        let mut nes = Nes::power_on();
        nes.raw_mut().game_mode = game_mode::PLAY;
        nes.raw_mut().render_mode = 3;
        nes.raw_mut().player1.play_state = play_state::ACTIVE;
        nes.raw_mut().player1.level_number = 0;
        nes.raw_mut().playfield[..200].fill(TILE_EMPTY);
        nes.raw_mut().playfield[190] = TILE3;
        nes.raw_mut().playfield[191] = TILE2;
        nes.raw_mut().playfield[192] = TILE1;
        nes.raw_mut().player1.current_piece = 0x02; // T pointing down, the spawn orientation
        nes.raw_mut().player1.tetrimino_x = 5;
        nes.raw_mut().player1.tetrimino_y = 0;
        nes.raw_mut().next_piece = 0x12; // I, horizontal
        nes.raw_mut().display_next_piece = 0;
        nes.raw_mut().player1.score = [0x56, 0x34, 0x12];
        nes.raw_mut().player1.lines = [0x23, 0x01];
        nes.raw_mut().stats_by_type = [0; 14];
        nes.raw_mut().stats_by_type[0] = 0x07; // 7 T pieces
        nes.raw_mut().stats_by_type[13] = 0x01; // 100 I pieces
        nes.raw_mut().high_score_scores[..3].copy_from_slice(&[0x01, 0x00, 0x00]);
        nes
    }

    fn render(nes: &Nes, overlay: &Overlay<'_>, w: u16, h: u16) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
        terminal
            .draw(|f| draw(f, nes, overlay))
            .expect("draw to the test backend");
        terminal.backend().buffer().clone()
    }

    fn row_text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
    }

    fn text(buf: &Buffer) -> String {
        (0..buf.area.height)
            .map(|y| row_text(buf, y))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The screen cell of playfield cell (x, y), left half.
    fn cell(buf: &Buffer, x: u16, y: u16) -> &ratatui::buffer::Cell {
        &buf[(BOARD_X + 2 * x, BOARD_Y + y)]
    }

    #[test]
    fn numbers_statistics_and_player_are_shown() {
        let nes = game();
        let overlay = Overlay {
            title: "scripted player",
            ..Overlay::default()
        };
        let buf = render(&nes, &overlay, 80, 24);
        let all = text(&buf);
        assert!(all.contains("123456"), "score missing:\n{all}");
        assert!(all.contains("010000"), "top score missing:\n{all}");
        assert!(all.contains("LINES 123"), "{all}");
        assert!(all.contains("LEVEL 00"), "{all}");
        assert!(all.contains("T []  007"), "{all}");
        assert!(all.contains("I []  100"), "{all}");
        assert!(all.contains("scripted player"), "{all}");
        assert!(!all.contains("PAUSE"));
    }

    #[test]
    fn locked_cells_use_the_level_0_palette() {
        let buf = render(&game(), &Overlay::default(), 80, 24);
        // Level 0: colour 2 = $21, colour 3 = $12, colour 1 = $30 (white).
        assert_eq!(cell(&buf, 0, 19).bg, nes_rgb(0x12), "$7D is solid colour 3");
        assert_eq!(cell(&buf, 1, 19).bg, nes_rgb(0x21), "$7C is solid colour 2");
        let white = cell(&buf, 2, 19);
        assert_eq!(
            (white.symbol(), white.bg, white.fg),
            ("[", nes_rgb(0x30), nes_rgb(0x21))
        );
        assert_eq!(cell(&buf, 3, 19).bg, nes_rgb(0x0F), "empty is the backdrop");
    }

    #[test]
    fn palette_cycles_every_ten_levels() {
        let mut nes = game();
        nes.raw_mut().player1.level_number = 18;
        let buf = render(&nes, &Overlay::default(), 80, 24);
        // colorTable entry 8: $0F $30 $16 $12.
        assert_eq!(cell(&buf, 1, 19).bg, nes_rgb(0x16));
        assert_eq!(cell(&buf, 1, 19).bg, Color::Rgb(152, 34, 32));
        assert_eq!(cell(&buf, 0, 19).bg, nes_rgb(0x12));
    }

    #[test]
    fn falling_piece_is_drawn_from_its_orientation() {
        let buf = render(&game(), &Overlay::default(), 80, 24);
        // tDown at (5, 0): (4,0) (5,0) (6,0) (5,1); nothing at (5,2) or (3,0).
        for (x, y) in [(4, 0), (5, 0), (6, 0), (5, 1)] {
            assert_eq!(cell(&buf, x, y).symbol(), "[", "T mino at ({x},{y})");
        }
        for (x, y) in [(3, 0), (5, 2), (7, 0)] {
            assert_eq!(cell(&buf, x, y).symbol(), " ", "empty at ({x},{y})");
        }
    }

    #[test]
    fn next_piece_hidden_by_select() {
        let mut nes = game();
        let shown = text(&render(&nes, &Overlay::default(), 80, 24));
        assert!(shown.contains("[][][][]"), "I preview:\n{shown}");
        nes.raw_mut().next_piece = 0x0E; // L: a blank cell first on its top row, kept in place
        let l = render(&nes, &Overlay::default(), 80, 24);
        let preview_row = (0..24)
            .find(|&y| row_text(&l, y).contains("NEXT"))
            .expect("NEXT label")
            + 2;
        // The info box's inner area starts at column BOARD_X + 22; dx -2..1 are 2 columns each.
        let info_x = BOARD_X + 22;
        assert_ne!(l[(info_x, preview_row)].bg, nes_rgb(0x21), "dx -2 is blank");
        assert_eq!(l[(info_x + 2, preview_row)].bg, nes_rgb(0x21));
        assert_eq!(l[(info_x + 6, preview_row)].bg, nes_rgb(0x21));
        assert_eq!(l[(info_x + 2, preview_row + 1)].bg, nes_rgb(0x21));
        nes.raw_mut().display_next_piece = 1;
        let hidden = text(&render(&nes, &Overlay::default(), 80, 24));
        assert!(hidden.contains("(hidden: Select)"));
        assert!(!hidden.contains("[][][][]"));
    }

    #[test]
    fn pause_hides_the_piece_and_says_pause() {
        let mut nes = game();
        nes.raw_mut().render_mode = 0;
        let buf = render(&nes, &Overlay::default(), 80, 24);
        assert!(row_text(&buf, BOARD_Y + 9).contains("PAUSE"));
        assert_eq!(cell(&buf, 5, 0).symbol(), " ", "no piece while paused");
        assert_eq!(cell(&buf, 0, 19).bg, nes_rgb(0x12), "board stays visible");
    }

    #[test]
    fn target_placement_is_outlined() {
        let overlay = Overlay {
            target: Some([(3, 19), (4, 19), (5, 19), (4, 18)]),
            ..Overlay::default()
        };
        let buf = render(&game(), &overlay, 80, 24);
        assert_eq!(cell(&buf, 3, 19).symbol(), "░");
        assert_eq!(cell(&buf, 4, 18).symbol(), "░");
        assert_eq!(cell(&buf, 6, 19).symbol(), " ");
    }

    #[test]
    fn small_terminal_gets_a_message() {
        let all = text(&render(&game(), &Overlay::default(), 40, 10));
        assert!(all.contains("Terminal too small: 40×10"), "{all}");
        assert!(!all.contains("SCORE"));
    }

    #[test]
    fn menus_are_described() {
        let mut nes = game();
        nes.raw_mut().game_mode = game_mode::LEVEL_MENU;
        nes.raw_mut().player1.start_level = 9;
        let all = text(&render(&nes, &Overlay::default(), 80, 24));
        assert!(all.contains("LEVEL"), "{all}");
        assert!(all.contains('9'));
    }
}
