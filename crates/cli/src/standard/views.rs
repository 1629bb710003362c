//! The Standard Tetris terminal views: watching an AI, and a person playing.

use std::time::{Duration, Instant};

use anyhow::Result;
use playfield_ai::standard::{MoveModel, Player};
use playfield_standard::{Game, Iteration, Piece, WIDTH, iteration_delay};

use super::{PlayArgs, WatchArgs};
use crate::tui::is_quit;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

fn piece_color(p: Piece) -> Color {
    match p {
        Piece::O => Color::Yellow,
        Piece::I => Color::Cyan,
        Piece::S => Color::Green,
        Piece::Z => Color::Red,
        Piece::L => Color::Rgb(255, 165, 0),
        Piece::J => Color::Blue,
        Piece::T => Color::Magenta,
    }
}

/// Columns the view needs: the board (two per cell and the border) and the information panel.
const PANEL_WIDTH: u16 = 24;

/// The smallest terminal that shows a board of `rows` rows: (columns, rows).
fn min_size(rows: usize) -> (u16, u16) {
    let board_rows = u16::try_from(rows).unwrap_or(u16::MAX).saturating_add(2);
    (2 * WIDTH as u16 + 2 + PANEL_WIDTH, board_rows.max(10))
}

fn draw(frame: &mut ratatui::Frame<'_>, game: &Game, title: &str, status: &str) {
    let board = game.board();
    let h = board.height();
    let area = frame.area();
    let (need_w, need_h) = min_size(h);
    if area.width < need_w || area.height < need_h {
        let text = format!(
            "Terminal too small: need {need_w}x{need_h}, have {}x{}. Resize or press q.",
            area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let mut lines = Vec::with_capacity(h + 1);
    let current = game.current();
    let cells = current.map(|p| p.cells());
    for y in (0..h).rev() {
        let mut spans = Vec::with_capacity(WIDTH);
        for x in 0..WIDTH {
            let falling = cells.is_some_and(|c| c.contains(&(x as i32, y as i32)));
            if falling {
                let color = current.map_or(Color::White, |p| piece_color(p.kind));
                spans.push(Span::styled("[]", Style::default().fg(color)));
            } else if board.cell(x, y) {
                spans.push(Span::styled("[]", Style::default().fg(Color::Gray)));
            } else {
                spans.push(Span::styled(" .", Style::default().fg(Color::DarkGray)));
            }
        }
        lines.push(Line::from(spans));
    }
    let [left, right] = Layout::horizontal([
        Constraint::Length(2 * WIDTH as u16 + 2),
        Constraint::Min(24),
    ])
    .areas(frame.area());
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title(title.to_owned())),
        left,
    );
    let next = game.next().map_or("-".to_owned(), |p| p.to_string());
    let info = vec![
        Line::from(format!("level   {}", game.level())),
        Line::from(format!("lines   {}", game.lines())),
        Line::from(format!("score   {}", game.score())),
        Line::from(format!("pieces  {}", game.pieces())),
        Line::from(format!("next    {next}")),
        Line::from(format!(
            "delay   {:.2} s",
            iteration_delay(game.level()).as_secs_f64()
        )),
        Line::from(""),
        Line::from(status.to_owned()),
    ];
    frame.render_widget(Paragraph::new(info).block(Block::bordered()), right);
}

pub(super) fn watch(a: &WatchArgs) -> Result<()> {
    let config = a.ai.config(&a.game)?;
    let sequence = a.game.sequence()?;
    let player = Player::new(config);
    let (mut game, _) = a.game.new_game(&sequence, 0)?;
    let (mut terminal, _guard) = crate::tui::enter("standard watch")?;
    let title = format!(" {} ({}) ", a.ai.ai, config.model);
    let mut speed = a.speed;
    let mut paused = false;
    let mut next_tick = Instant::now();
    loop {
        let status = if let Some(e) = game.game_over() {
            format!("game over ({e:?}); q quits")
        } else {
            format!("speed x{speed}  +/- speed, p pause, q quit")
        };
        terminal.draw(|f| draw(f, &game, &title, &status))?;
        if crate::tui::terminated() {
            return Ok(());
        }
        let now = Instant::now();
        let wait = next_tick.saturating_duration_since(now);
        if event::poll(wait.min(Duration::from_millis(50)))? {
            if let Event::Key(k) = event::read()?
                && k.kind == KeyEventKind::Press
            {
                if is_quit(k.code, k.modifiers) {
                    return Ok(());
                }
                match k.code {
                    KeyCode::Char('+') | KeyCode::Char('=') => speed = (speed * 2.0).min(1024.0),
                    KeyCode::Char('-') => speed = (speed / 2.0).max(1.0 / 16.0),
                    KeyCode::Char('p') => paused = !paused,
                    _ => {}
                }
            }
            continue;
        }
        if Instant::now() < next_tick || paused || game.game_over().is_some() {
            continue;
        }
        // One falling iteration; when a piece has just appeared, the player waits for the next
        // iteration (the fall of one row) and then rotates, slides and drops at once.
        match game.current() {
            Some(p) if p.y == game.spawn_y() && config.model == MoveModel::Standard => {
                player.play_piece(&mut game)?;
            }
            Some(_) if config.model == MoveModel::Simplified => {
                player.play_piece(&mut game)?;
            }
            _ => {
                game.iteration();
            }
        }
        next_tick = Instant::now() + iteration_delay(game.level()).div_f64(speed);
    }
}

pub(super) fn play(a: &PlayArgs) -> Result<()> {
    let sequence = a.game.sequence()?;
    let (mut game, _) = a.game.new_game(&sequence, 0)?;
    let (mut terminal, _guard) = crate::tui::enter("standard play")?;
    let mut paused = false;
    // §5.5: a full free-fall delay passes before the first piece appears.
    let mut next_tick = Instant::now() + iteration_delay(game.level());
    loop {
        let status = if let Some(e) = game.game_over() {
            format!("game over ({e:?}); r restarts, q quits")
        } else if paused {
            "paused; p resumes".to_owned()
        } else {
            "←/→ move, ↑ rotate, space drop".to_owned()
        };
        terminal.draw(|f| draw(f, &game, " Standard Tetris ", &status))?;
        if crate::tui::terminated() {
            return Ok(());
        }
        let wait = next_tick.saturating_duration_since(Instant::now());
        if event::poll(wait.min(Duration::from_millis(100)))? {
            if let Event::Key(k) = event::read()?
                && k.kind == KeyEventKind::Press
            {
                if is_quit(k.code, k.modifiers) {
                    return Ok(());
                }
                if paused && k.code != KeyCode::Char('p') {
                    continue;
                }
                match k.code {
                    KeyCode::Left | KeyCode::Char('h') => {
                        game.left();
                    }
                    KeyCode::Right | KeyCode::Char('l') => {
                        game.right();
                    }
                    KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('z') => {
                        game.rotate();
                    }
                    KeyCode::Down | KeyCode::Char(' ') | KeyCode::Char('j') => {
                        // §5.5: after a landing a full delay passes before the next piece.
                        let landed = game.drop().is_some();
                        if landed {
                            next_tick = Instant::now() + iteration_delay(game.level());
                        }
                    }
                    KeyCode::Char('p') => paused = !paused,
                    KeyCode::Char('r') if game.game_over().is_some() => {
                        game = a.game.new_game(&sequence, 0)?.0;
                        next_tick = Instant::now() + iteration_delay(game.level());
                    }
                    _ => {}
                }
            }
            continue;
        }
        if paused || game.game_over().is_some() {
            next_tick = Instant::now() + Duration::from_millis(100);
            continue;
        }
        let _: Iteration = game.iteration();
        next_tick = Instant::now() + iteration_delay(game.level());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use playfield_standard::PieceSource;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn screen(game: &Game, w: u16, h: u16) -> String {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| draw(f, game, " t ", "status")).unwrap();
        let buf = t.backend().buffer().clone();
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| buf[(x, y)].symbol().to_string())
            .collect()
    }

    #[test]
    fn too_small_terminal_says_so_and_a_big_one_shows_the_game() {
        let game = Game::new(20, 1, PieceSource::random(1)).unwrap();
        let small = screen(&game, 30, 8);
        assert!(small.contains("Terminal too small"), "{small}");
        assert!(small.contains("46x22"), "{small}");
        let big = screen(&game, 46, 22);
        assert!(big.contains("level") && big.contains("status"), "{big}");
    }
}
