//! `playfield standard ...` subcommands: benchmark, watch and play Colin Fahey's Standard Tetris.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use playfield_ai::standard::{Evaluator, GameRecord, MoveModel, Player, PlayerConfig};
use playfield_standard::{
    EndRule, Game, GameOver, Iteration, Piece, PieceSource, STANDARD_HEIGHT, WIDTH, game_seed,
    iteration_delay, parse_pieces,
};
use rayon::prelude::*;
use serde::Serialize;

/// The `standard` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play N games with an AI player in parallel and report lines cleared.
    Bench(BenchArgs),
    /// Watch an AI player in the terminal, in real time (the iteration delay of each level).
    Watch(WatchArgs),
    /// Play with the keyboard: arrows/h/l move, up/z/k rotate, space/down drop, p pause, q quit.
    Play(PlayArgs),
}

/// Which pieces a game gets.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// Board height (rows); research uses 10 to 20.
    #[arg(long, default_value_t = STANDARD_HEIGHT)]
    height: usize,
    /// Initial level, 1..=10.
    #[arg(long, default_value_t = 1)]
    level: u8,
    /// Base seed of the piece generator (each game's seed is derived from it and the game index).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A fixed piece sequence: the letters O I S Z L J T, whitespace ignored; games end when it
    /// runs out.
    #[arg(long, value_name = "FILE", conflicts_with = "sz")]
    pieces: Option<PathBuf>,
    /// The alternating S/Z sequence (§6.2), which ends every game.
    #[arg(long)]
    sz: bool,
    /// When the game ends: spawn-blocked (Fahey's rule, §5.4: a new piece must appear at the
    /// top centre) or no-placement (the research benchmarks': while the piece fits at the top in
    /// some orientation and column; with --model simplified for the AI).
    #[arg(long, value_enum, default_value = "spawn-blocked")]
    end_rule: EndRuleArg,
}

/// [`EndRule`] on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EndRuleArg {
    SpawnBlocked,
    NoPlacement,
}

impl From<EndRuleArg> for EndRule {
    fn from(a: EndRuleArg) -> EndRule {
        match a {
            EndRuleArg::SpawnBlocked => EndRule::SpawnBlocked,
            EndRuleArg::NoPlacement => EndRule::NoPlacement,
        }
    }
}

/// How the AI plays.
#[derive(Debug, Args, Clone)]
pub struct AiArgs {
    /// Evaluator: dellacherie, el-tetris or bcts.
    #[arg(long, default_value = "dellacherie")]
    ai: String,
    /// 1 = current piece only, 2 = also the preview piece.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    lookahead: u8,
    /// Move model: standard (Fahey's: fall a row, rotate, slide, drop) or simplified (any
    /// rotation and column, dropped from above).
    #[arg(long, default_value = "standard")]
    model: String,
    /// Avoid moves after which a new piece could not appear (unless every move is such).
    #[arg(long)]
    exclude_game_ending: bool,
}

impl AiArgs {
    fn config(&self, game: &GameArgs) -> Result<PlayerConfig> {
        let evaluator: Evaluator = self.ai.parse()?;
        let model: MoveModel = self.model.parse()?;
        let end_rule = EndRule::from(game.end_rule);
        if end_rule == EndRule::NoPlacement && model == MoveModel::Standard {
            bail!(
                "--end-rule no-placement needs --model simplified: the standard model moves \
                 pieces from the spawn position"
            );
        }
        Ok(PlayerConfig {
            lookahead: self.lookahead,
            exclude_game_ending: self.exclude_game_ending,
            end_rule,
            ..PlayerConfig::new(evaluator, model)
        })
    }
}

/// `standard bench` options.
#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(flatten)]
    ai: AiArgs,
    #[command(flatten)]
    game: GameArgs,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Stop a game once it has completed this many lines (reported as capped).
    #[arg(long)]
    max_lines: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON (per-game lines and a summary) instead of text.
    #[arg(long)]
    json: bool,
    /// Write an SVG histogram of lines per game, with the mean and its 95% interval.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// `standard watch` options.
#[derive(Debug, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    ai: AiArgs,
    #[command(flatten)]
    game: GameArgs,
    /// Multiply the speed (2 = twice as fast as the iteration delay).
    #[arg(long, default_value_t = 1.0)]
    speed: f64,
}

/// `standard play` options.
#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
}

/// Runs one `standard` subcommand.
pub fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Bench(a) => bench(&a),
        Command::Watch(a) => watch(&a),
        Command::Play(a) => play(&a),
    }
}

/// What every game of a run is made from.
#[derive(Debug, Clone)]
enum Sequence {
    Random,
    Sz,
    Fixed(Vec<Piece>),
}

impl GameArgs {
    fn sequence(&self) -> Result<Sequence> {
        if let Some(path) = &self.pieces {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading piece sequence {}", path.display()))?;
            return Ok(Sequence::Fixed(parse_pieces(
                &text,
                &path.display().to_string(),
            )?));
        }
        Ok(if self.sz {
            Sequence::Sz
        } else {
            Sequence::Random
        })
    }

    fn new_game(&self, sequence: &Sequence, index: u64) -> Result<(Game, u64)> {
        let seed = game_seed(self.seed, index);
        let source = match sequence {
            Sequence::Random => PieceSource::random(seed),
            Sequence::Sz => PieceSource::alternating_sz(),
            Sequence::Fixed(p) => PieceSource::fixed(p.clone()),
        };
        let game = Game::new(self.height, self.level, source)?.with_end_rule(self.end_rule.into());
        Ok((game, seed))
    }
}

#[derive(Debug, Serialize)]
struct GameJson {
    index: u64,
    seed: u64,
    lines: u64,
    pieces: u64,
    score: u64,
    capped: bool,
    ended: Option<&'static str>,
}

#[derive(Debug, Serialize)]
struct Summary {
    games: u64,
    mean_lines: f64,
    ci95_low: Option<f64>,
    ci95_high: Option<f64>,
    ci95_half_width: Option<f64>,
    median_lines: f64,
    min_lines: u64,
    max_lines: u64,
    capped_games: u64,
    total_pieces: u64,
    seconds: f64,
    pieces_per_second: f64,
    threads: usize,
}

#[derive(Debug, Serialize)]
struct ConfigJson {
    ai: String,
    lookahead: u8,
    model: String,
    exclude_game_ending: bool,
    end_rule: &'static str,
    height: usize,
    level: u8,
    seed: u64,
    sequence: &'static str,
    max_lines: Option<u64>,
}

#[derive(Debug, Serialize)]
struct BenchJson {
    config: ConfigJson,
    games: Vec<GameJson>,
    summary: Summary,
}

fn ended_name(e: Option<GameOver>) -> Option<&'static str> {
    e.map(|e| match e {
        GameOver::SpawnBlocked => "spawn-blocked",
        GameOver::NoPlacement => "no-placement",
        GameOver::SequenceEnded => "sequence-ended",
    })
}

/// Mean, and the 95% normal-approximation interval of the mean (None for fewer than 2 games).
fn mean_ci(lines: &[u64]) -> (f64, Option<(f64, f64)>) {
    let n = lines.len() as f64;
    if lines.is_empty() {
        return (0.0, None);
    }
    let mean = lines.iter().map(|&l| l as f64).sum::<f64>() / n;
    if lines.len() < 2 {
        return (mean, None);
    }
    let var = lines
        .iter()
        .map(|&l| (l as f64 - mean).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, Some((mean - half, mean + half)))
}

fn median(sorted: &[u64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        n => (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0,
    }
}

fn bench(a: &BenchArgs) -> Result<()> {
    let config = a.ai.config(&a.game)?;
    let sequence = a.game.sequence()?;
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    // Fail on a bad height or level before starting threads.
    a.game.new_game(&sequence, 0)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()?;
    let threads = pool.current_num_threads();
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(a.games), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let player = Player::new(config);
    let start = Instant::now();
    let results: Vec<Result<(u64, GameRecord)>> = pool.install(|| {
        (0..a.games)
            .into_par_iter()
            .map(|i| {
                let (mut game, seed) = a.game.new_game(&sequence, i)?;
                let r = player
                    .play_game(&mut game, a.max_lines)
                    .with_context(|| format!("game {i} (seed {seed})"))?;
                bar.inc(1);
                Ok((seed, r))
            })
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let results: Vec<(u64, GameRecord)> = results.into_iter().collect::<Result<_>>()?;

    let lines: Vec<u64> = results.iter().map(|(_, r)| r.lines).collect();
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    let (mean, ci) = mean_ci(&lines);
    let total_pieces: u64 = results.iter().map(|(_, r)| r.pieces).sum();
    let capped = results.iter().filter(|(_, r)| r.capped).count() as u64;
    let summary = Summary {
        games: a.games,
        mean_lines: mean,
        ci95_low: ci.map(|c| c.0),
        ci95_high: ci.map(|c| c.1),
        ci95_half_width: ci.map(|c| (c.1 - c.0) / 2.0),
        median_lines: median(&sorted),
        min_lines: sorted[0],
        max_lines: sorted[sorted.len() - 1],
        capped_games: capped,
        total_pieces,
        seconds,
        pieces_per_second: total_pieces as f64 / seconds.max(1e-9),
        threads,
    };
    if let Some(path) = &a.plot {
        crate::plot::histogram(path, &lines, mean, ci, &describe(a, &config), "lines")?;
    }
    if a.json {
        let out = BenchJson {
            config: ConfigJson {
                ai: a.ai.ai.to_ascii_lowercase(),
                lookahead: config.lookahead,
                model: config.model.to_string(),
                exclude_game_ending: config.exclude_game_ending,
                end_rule: match config.end_rule {
                    EndRule::SpawnBlocked => "spawn-blocked",
                    EndRule::NoPlacement => "no-placement",
                },
                height: a.game.height,
                level: a.game.level,
                seed: a.game.seed,
                sequence: match sequence {
                    Sequence::Random => "random",
                    Sequence::Sz => "alternating-sz",
                    Sequence::Fixed(_) => "file",
                },
                max_lines: a.max_lines,
            },
            games: results
                .iter()
                .enumerate()
                .map(|(i, (seed, r))| GameJson {
                    index: i as u64,
                    seed: *seed,
                    lines: r.lines,
                    pieces: r.pieces,
                    score: r.score,
                    capped: r.capped,
                    ended: ended_name(r.ended),
                })
                .collect(),
            summary,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    let mut s = String::new();
    writeln!(s, "Standard Tetris bench: {}", describe(a, &config))?;
    writeln!(s, "games        {}", summary.games)?;
    match ci {
        Some((lo, hi)) => writeln!(
            s,
            "lines mean   {mean:.1} ± {:.1} (95% CI {lo:.1} .. {hi:.1})",
            (hi - lo) / 2.0
        )?,
        None => writeln!(s, "lines mean   {mean:.1} (one game: no interval)")?,
    }
    writeln!(s, "median       {}", summary.median_lines)?;
    writeln!(
        s,
        "min / max    {} / {}",
        summary.min_lines, summary.max_lines
    )?;
    writeln!(
        s,
        "pieces       {} in {:.2} s on {} threads: {:.0} pieces/s",
        total_pieces, seconds, threads, summary.pieces_per_second
    )?;
    if let Some(cap) = a.max_lines {
        if capped > 0 {
            writeln!(
                s,
                "capped       {capped} of {} games stopped at the cap of {cap} lines: the mean is a lower bound",
                a.games
            )?;
        } else {
            writeln!(s, "capped       none (cap {cap} lines)")?;
        }
    }
    print!("{s}");
    Ok(())
}

fn describe(a: &BenchArgs, c: &PlayerConfig) -> String {
    let mut d = format!(
        "ai={} lookahead={} model={} height={} level={} seed={}",
        a.ai.ai.to_ascii_lowercase(),
        c.lookahead,
        c.model,
        a.game.height,
        a.game.level,
        a.game.seed
    );
    if c.exclude_game_ending {
        d.push_str(" exclude-game-ending");
    }
    if c.end_rule == EndRule::NoPlacement {
        d.push_str(" end-rule=no-placement");
    }
    if let Some(p) = &a.game.pieces {
        let _ = write!(d, " pieces={}", p.display());
    }
    if a.game.sz {
        d.push_str(" sequence=alternating-sz");
    }
    if let Some(m) = a.max_lines {
        let _ = write!(d, " max-lines={m}");
    }
    d
}

// ---- Terminal views -------------------------------------------------------------------------

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

fn draw(frame: &mut ratatui::Frame<'_>, game: &Game, title: &str, status: &str) {
    let board = game.board();
    let h = board.height();
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

fn watch(a: &WatchArgs) -> Result<()> {
    let config = a.ai.config(&a.game)?;
    let sequence = a.game.sequence()?;
    if !(a.speed.is_finite() && a.speed > 0.0) {
        bail!("--speed must be a positive number");
    }
    let player = Player::new(config);
    let (mut game, _) = a.game.new_game(&sequence, 0)?;
    let (mut terminal, _guard) = crate::tui::enter("watch")?;
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

fn play(a: &PlayArgs) -> Result<()> {
    let sequence = a.game.sequence()?;
    let (mut game, _) = a.game.new_game(&sequence, 0)?;
    let (mut terminal, _guard) = crate::tui::enter("play")?;
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
        let wait = next_tick.saturating_duration_since(Instant::now());
        if event::poll(wait)? {
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

    #[test]
    fn statistics() {
        let (m, ci) = mean_ci(&[10, 20, 30]);
        assert_eq!(m, 20.0);
        let (lo, hi) = ci.unwrap();
        // sd = 10, se = 10/sqrt(3)
        assert!((hi - 20.0 - 1.96 * 10.0 / 3f64.sqrt()).abs() < 1e-9);
        assert!((20.0 - lo - (hi - 20.0)).abs() < 1e-9);
        assert_eq!(mean_ci(&[5]).1, None);
        assert_eq!(median(&[1, 2, 3, 4]), 2.5);
        assert_eq!(median(&[1, 2, 9]), 2.0);
    }
}
