//! The NES Tetris screen drawn from the engine's RAM: playfield in the level's ROM colours, the
//! falling piece, next piece, statistics, top score, score, lines, level, PAUSE.

use playfield_nes::tables::{ORIENTATION_HIDDEN, ORIENTATIONS, TILE_EMPTY, TILE1, TILE2, TILE3};
use playfield_nes::{Nes, bcd, game_mode, play_state};
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
    /// The title of the playfield box (who is playing).
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
    nes.game_mode == game_mode::PLAY && nes.render_mode == 0
}

/// The falling piece's four cells and tile, when the ROM shows it (its sprite is drawn only while
/// the player controls it and the game is not paused).
fn falling_piece(nes: &Nes) -> Option<([(i16, i16); 4], u8)> {
    let p = &nes.player;
    let showing = matches!(nes.game_mode, game_mode::PLAY | game_mode::DEMO)
        && nes.render_mode == 3
        && p.play_state == play_state::ACTIVE
        && p.current_piece < ORIENTATION_HIDDEN;
    if !showing {
        return None;
    }
    let minos = ORIENTATIONS[usize::from(p.current_piece)];
    let cells = minos.map(|m| {
        (
            i16::from(p.tetrimino_x) + i16::from(m.dx),
            i16::from(p.tetrimino_y) + i16::from(m.dy),
        )
    });
    Some((cells, minos[0].tile))
}

/// A 6-digit BCD number stored big-endian (the high-score table) as decimal.
fn bcd3(b: &[u8]) -> u32 {
    b.iter().fold(0, |acc, &x| acc * 100 + u32::from(bcd(x)))
}

/// The top score shown by the ROM: the first high-score entry of the current game type.
#[must_use]
pub fn top_score(nes: &Nes) -> u32 {
    let start = if nes.game_type != 0 { 12 } else { 0 };
    bcd3(&nes.high_score_scores[start..start + 3])
}

/// How many pieces of type `t` (0-6, T J Z O S L I) have spawned, from the BCD statistics.
#[must_use]
pub fn piece_count(nes: &Nes, t: usize) -> u32 {
    u32::from(bcd(nes.stats_by_type[2 * t + 1])) * 100 + u32::from(bcd(nes.stats_by_type[2 * t]))
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
    let text = match nes.game_mode {
        game_mode::LEGAL => "legal screen".to_owned(),
        game_mode::TITLE => "title screen\n\nEnter = Start".to_owned(),
        game_mode::GAME_TYPE_MENU => format!(
            "GAME TYPE\n\n{}\n\nMUSIC {}",
            if nes.game_type == 0 {
                "> A-TYPE   B-TYPE"
            } else {
                "  A-TYPE > B-TYPE"
            },
            if nes.music_type < 3 {
                (nes.music_type + 1).to_string()
            } else {
                "OFF".to_owned()
            }
        ),
        game_mode::LEVEL_MENU => format!(
            "LEVEL\n\n{}\n\n(hold A on Start: +10)",
            nes.player1.start_level
        ),
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
    let colors = level_colors(nes.player.level_number);
    let in_game = matches!(nes.game_mode, game_mode::PLAY | game_mode::DEMO);

    draw_stats(frame, nes, stats, &colors);
    draw_board(frame, nes, overlay, board, &colors, in_game);
    draw_info(frame, nes, info, &colors, in_game);
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
            Span::raw(format!("  {:03}", piece_count(nes, t))),
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
    let block = Block::bordered().title(overlay.title.to_owned());
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
                None => nes.playfield[(y * 10 + x) as usize],
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

fn draw_info(frame: &mut Frame<'_>, nes: &Nes, area: Rect, colors: &[Color; 4], in_game: bool) {
    let p = &nes.player;
    let mut lines = vec![
        Line::from("TOP"),
        Line::from(format!("{:06}", top_score(nes))),
        Line::from("SCORE"),
        Line::from(format!("{:06}", p.score_decimal())),
        Line::from(""),
        Line::from(format!("LINES {:03}", p.lines_decimal())),
        Line::from(format!("LEVEL {:02}", p.level_number)),
        Line::from(""),
        Line::from("NEXT"),
    ];
    if in_game && nes.display_next_piece == 0 && nes.next_piece < ORIENTATION_HIDDEN {
        lines.extend(piece_lines(nes.next_piece, colors));
    } else if in_game {
        lines.push(Line::from("(hidden: Select)"));
    }
    frame.render_widget(Paragraph::new(lines).block(Block::bordered()), area);
}
