//! `playfield minijong play`: the game in the terminal (ratatui + crossterm).

use std::io::{IsTerminal, Write};
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::bail;
use playfield_minijong::game::Buzz;
use playfield_minijong::solver::solve_limited;
use playfield_minijong::{Board, Direction, FireOutcome, Game, Pair, solvable_deal};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use ratatui::{DefaultTerminal, Frame};

use super::solve::face_letter;

/// Smallest terminal the screen fits in.
pub const MIN_WIDTH: u16 = 44;
/// Smallest terminal height the screen fits in.
pub const MIN_HEIGHT: u16 = 15;
/// Search budget for a hint.
const HINT_NODES: u64 = 2_000_000;
/// Columns per tile on screen.
const CELL: u16 = 3;

/// Levels in distinct colours, darker = lower (the seed sets brighter luminance for higher Z).
const LEVEL_COLOURS: [Color; 3] = [Color::Blue, Color::Magenta, Color::Yellow];

/// The state the screen shows.
pub struct App {
    /// The game.
    pub game: Game,
    /// The deal's seed.
    pub seed: u64,
    /// Last message for the status line.
    pub message: String,
    /// The pair last hinted, highlighted until the next action.
    pub hint: Option<Pair>,
}

impl App {
    /// A new screen for `game`.
    pub fn new(game: Game, seed: u64) -> Self {
        Self {
            game,
            seed,
            message: String::from("Select pairs of matching free tiles."),
            hint: None,
        }
    }

    /// Handles a key; returns `None` to quit, else whether to ring the bell.
    pub fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> Option<bool> {
        if code == KeyCode::Char('q')
            || code == KeyCode::Esc
            || (code == KeyCode::Char('c') && modifiers.contains(KeyModifiers::CONTROL))
        {
            return None;
        }
        let mut bell = false;
        match code {
            KeyCode::Up => self.game.move_cursor(Direction::Up),
            KeyCode::Down => self.game.move_cursor(Direction::Down),
            KeyCode::Left => self.game.move_cursor(Direction::Left),
            KeyCode::Right => self.game.move_cursor(Direction::Right),
            KeyCode::Char(' ') | KeyCode::Enter => {
                self.hint = None;
                match self.game.fire() {
                    FireOutcome::Nothing => {}
                    FireOutcome::Selected => self.message = "Selected; pick its match.".into(),
                    FireOutcome::Unselected => self.message = "Unselected.".into(),
                    FireOutcome::Buzz(Buzz::NotFree) => {
                        bell = true;
                        self.message = "Buzz! That tile is not free.".into();
                    }
                    FireOutcome::Buzz(Buzz::Mismatch) => {
                        bell = true;
                        self.message = "Buzz! The faces differ.".into();
                    }
                    FireOutcome::Removed(_) => self.message = self.after_removal(),
                }
            }
            KeyCode::Char('h') => {
                // A bounded search keeps the screen responsive on the rare very hard position.
                let solved = solve_limited(self.game.board(), self.game.heights(), HINT_NODES);
                let proven = solved.is_some();
                self.hint = match solved {
                    Some(s) => s.moves.first().copied(),
                    None => self.game.legal_pairs().first().copied(),
                };
                self.message = match self.hint {
                    Some(p) => {
                        let (a, b) = (p.a.position(), p.b.position());
                        let note = if proven { "" } else { " (not proven best)" };
                        format!(
                            "Hint: ({},{}) and ({},{}){note}",
                            a / 7,
                            a % 7,
                            b / 7,
                            b % 7
                        )
                    }
                    None => "No pair left to hint.".into(),
                };
            }
            KeyCode::Char('u') => {
                self.hint = None;
                self.message = match self.game.undo() {
                    Some(_) => "Undone.".into(),
                    None => "Nothing to undo.".into(),
                };
            }
            _ => {}
        }
        Some(bell)
    }

    fn after_removal(&self) -> String {
        if self.game.is_cleared() {
            "Cleared! Only the odd tile remains.".into()
        } else if self.game.is_over() {
            format!(
                "No more moves: {} tiles left. u undo, q quit.",
                self.game.tiles_left()
            )
        } else {
            "Removed.".into()
        }
    }
}

/// Runs the command.
pub fn run(seed: Option<u64>, solvable: bool) -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() {
        bail!(
            "`playfield minijong play` needs a terminal, and stdout is not one (try `playfield minijong solve --seed S`)"
        );
    }
    let seed = seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    });
    let (seed, board) = if solvable {
        let (s, board, _) = solvable_deal(seed);
        (s, board)
    } else {
        (seed, Board::deal(seed))
    };
    let mut app = App::new(Game::new(board), seed);
    let (mut terminal, _guard) = crate::tui::enter("minijong play")?;
    event_loop(&mut terminal, &mut app)
}

fn event_loop(terminal: &mut DefaultTerminal, app: &mut App) -> anyhow::Result<()> {
    loop {
        terminal.draw(|frame| draw(frame, app))?;
        if crate::tui::terminated() {
            return Ok(());
        }
        // Poll rather than block, so SIGTERM/SIGHUP end the view within 100 ms.
        if !event::poll(std::time::Duration::from_millis(100))? {
            continue;
        }
        if let Event::Key(key) = event::read()? {
            if key.kind != KeyEventKind::Press {
                continue;
            }
            match app.key(key.code, key.modifiers) {
                None => return Ok(()),
                Some(true) => {
                    // The seed's buzzer: the terminal bell.
                    let mut out = std::io::stdout();
                    out.write_all(b"\x07")?;
                    out.flush()?;
                }
                Some(false) => {}
            }
        }
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let text = format!(
            "Terminal too small: need {MIN_WIDTH}x{MIN_HEIGHT}, have {}x{}. Resize or press q.",
            area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let game = &app.game;
    let title = format!("Minijong  seed {}  tiles {}", app.seed, game.tiles_left());
    frame.render_widget(
        Paragraph::new(title).style(Style::new().add_modifier(Modifier::BOLD)),
        row(area, 0),
    );

    let board_area = Rect::new(area.x, area.y + 1, 7 * CELL + 2, 9);
    frame.render_widget(Block::bordered(), board_area);
    let hinted = |r: usize, c: usize| {
        app.hint
            .is_some_and(|p| [p.a.position(), p.b.position()].contains(&(r * 7 + c)))
    };
    for r in 0..7 {
        let mut spans = Vec::with_capacity(7);
        for c in 0..7 {
            let at_cursor = game.cursor() == (r, c);
            let (text, mut style) = match game.visible(r, c) {
                None => (" · ".to_string(), Style::new().fg(Color::DarkGray)),
                Some((level, face)) => {
                    let style = if game.selected() == Some((r, c)) {
                        // The seed highlights the first selection in white.
                        Style::new().bg(Color::White).fg(Color::Black)
                    } else {
                        let fg = if level == 2 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        Style::new().bg(LEVEL_COLOURS[level]).fg(fg)
                    };
                    (format!(" {} ", face_letter(face)), style)
                }
            };
            if hinted(r, c) {
                style = style.fg(Color::Green).add_modifier(Modifier::BOLD);
            }
            let text = if at_cursor {
                style = style.add_modifier(Modifier::REVERSED);
                format!("[{}]", &text[1..text.len() - 1])
            } else {
                text
            };
            spans.push(Span::styled(text, style));
        }
        let cells = Rect::new(board_area.x + 1, board_area.y + 1 + r as u16, 7 * CELL, 1);
        frame.render_widget(Line::from(spans), cells);
    }

    let legend = Line::from(vec![
        Span::raw("levels: "),
        Span::styled(" 0 ", Style::new().bg(LEVEL_COLOURS[0]).fg(Color::White)),
        Span::raw(" "),
        Span::styled(" 1 ", Style::new().bg(LEVEL_COLOURS[1]).fg(Color::White)),
        Span::raw(" "),
        Span::styled(" 2 ", Style::new().bg(LEVEL_COLOURS[2]).fg(Color::Black)),
    ]);
    frame.render_widget(legend, row(area, 10));
    frame.render_widget(Paragraph::new(app.message.as_str()), row(area, 11));
    let state = if game.is_cleared() {
        "Cleared."
    } else if game.is_over() {
        "Game over: no free matching pair."
    } else {
        ""
    };
    frame.render_widget(Paragraph::new(state), row(area, 12));
    frame.render_widget(
        Paragraph::new("arrows move  Space/Enter fire"),
        row(area, 13),
    );
    frame.render_widget(Paragraph::new("h hint  u undo  q quit"), row(area, 14));
}

/// One full-width line of `area`.
fn row(area: Rect, y: u16) -> Rect {
    Rect::new(area.x, area.y + y, area.width, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use playfield_minijong::Slot;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// A small known board: A at (0,0) and (0,6) on level 0, B on level 1 at (1,1) over C.
    fn known() -> App {
        let mut faces = [0u8; 83];
        faces[Slot::new(0, 0, 0).unwrap().index()] = 1;
        faces[Slot::new(0, 0, 6).unwrap().index()] = 1;
        faces[Slot::new(0, 1, 1).unwrap().index()] = 3;
        faces[Slot::new(1, 0, 0).unwrap().index()] = 2;
        App::new(Game::new(Board::from_faces(&faces).unwrap()), 7)
    }

    fn screen(app: &App, w: u16, h: u16) -> (Vec<String>, ratatui::buffer::Buffer) {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| draw(f, app)).unwrap();
        let buf = t.backend().buffer().clone();
        let lines = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect();
        (lines, buf)
    }

    #[test]
    fn known_state_renders_to_known_screen() {
        let app = known();
        let (lines, buf) = screen(&app, 44, 15);
        assert_eq!(lines[0].trim_end(), "Minijong  seed 7  tiles 4");
        assert_eq!(lines[1], format!("┌{}┐{}", "─".repeat(21), " ".repeat(21)));
        // Row 0: cursor on A at (0,0), A at (0,6). Row 1: B (level 1) at (1,1).
        assert_eq!(lines[2].trim_end(), "│[A] ·  ·  ·  ·  ·  A │");
        assert_eq!(lines[3].trim_end(), "│ ·  B  ·  ·  ·  ·  · │");
        assert_eq!(lines[9].trim_end(), format!("└{}┘", "─".repeat(21)));
        assert_eq!(lines[10].trim_end(), "levels:  0   1   2");
        assert_eq!(lines[13].trim_end(), "arrows move  Space/Enter fire");
        // Levels in their colours: A on level 0, B on level 1; the cursor is reversed.
        assert_eq!(buf[(19, 2)].bg, LEVEL_COLOURS[0]);
        assert_eq!(buf[(5, 3)].bg, LEVEL_COLOURS[1]);
        assert!(buf[(2, 2)].modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn selection_removal_and_end_show_on_screen() {
        let mut app = known();
        assert_eq!(app.key(KeyCode::Enter, KeyModifiers::NONE), Some(false));
        let (_, buf) = screen(&app, 44, 15);
        assert_eq!(buf[(2, 2)].bg, Color::White);
        app.key(KeyCode::Left, KeyModifiers::NONE);
        assert_eq!(app.key(KeyCode::Char(' '), KeyModifiers::NONE), Some(false));
        let (lines, _) = screen(&app, 44, 15);
        assert_eq!(lines[2].trim_end(), "│ ·  ·  ·  ·  ·  · [·]│");
        assert_eq!(lines[0].trim_end(), "Minijong  seed 7  tiles 2");
        assert_eq!(lines[12].trim_end(), "Game over: no free matching pair.");
        // Undo brings the pair back; q quits.
        app.key(KeyCode::Char('u'), KeyModifiers::NONE);
        assert_eq!(app.game.tiles_left(), 4);
        assert_eq!(app.key(KeyCode::Char('q'), KeyModifiers::NONE), None);
        assert_eq!(app.key(KeyCode::Char('c'), KeyModifiers::CONTROL), None);
    }

    #[test]
    fn buzz_rings_the_bell() {
        let mut app = known();
        app.key(KeyCode::Enter, KeyModifiers::NONE); // select A
        app.key(KeyCode::Down, KeyModifiers::NONE);
        app.key(KeyCode::Right, KeyModifiers::NONE); // B at (1,1)
        assert_eq!(app.key(KeyCode::Enter, KeyModifiers::NONE), Some(true));
        assert!(app.message.contains("differ"));
    }

    #[test]
    fn hint_highlights_a_pair() {
        let mut app = known();
        app.key(KeyCode::Char('h'), KeyModifiers::NONE);
        assert!(app.hint.is_some());
        let (_, buf) = screen(&app, 44, 15);
        assert_eq!(buf[(19, 2)].fg, Color::Green);
    }

    #[test]
    fn too_small_terminal_says_so() {
        let (lines, _) = screen(&known(), 30, 6);
        let all = lines.join("");
        assert!(all.contains("Terminal too small"), "{all}");
    }
}
