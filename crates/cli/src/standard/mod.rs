//! `playfield standard ...`: Colin Fahey's Standard Tetris. `play` (you play), `watch` (watch an
//! AI), `bench` (AI games with statistics).

mod bench;
mod views;

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use playfield_ai::standard::{Evaluator, MoveModel, PlayerConfig};
use playfield_standard::{
    EndRule, Game, MAX_HEIGHT, MIN_HEIGHT, Piece, PieceSource, STANDARD_HEIGHT, game_seed,
    parse_pieces,
};

use crate::checks::{int, not_applicable, real, usage};
use crate::files::{MAX_PIECES_BYTES, read_text};

/// The `standard` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play with the keyboard: arrows/h/l move, up/z/k rotate, space/down drop, p pause, q quit.
    Play(PlayArgs),
    /// Watch an AI player in the terminal, in real time (the iteration delay of each level).
    Watch(WatchArgs),
    /// Play N games with an AI player in parallel and report lines cleared.
    Bench(bench::BenchArgs),
}

/// Which game, and which pieces it gets.
#[derive(Debug, Args, Clone)]
pub struct GameArgs {
    /// Board height in rows, 4 to 32 (research uses 10 to 20).
    #[arg(long, default_value_t = STANDARD_HEIGHT, value_parser = int(MIN_HEIGHT, MAX_HEIGHT))]
    height: usize,
    /// Initial level, 1 to 10.
    #[arg(long, default_value_t = 1, value_parser = int(1u8, 10))]
    level: u8,
    /// Seed of the run: each game's own seed is derived from it and the game's index.
    #[arg(long, conflicts_with = "game_seed")]
    seed: Option<u64>,
    /// The seed of one game, as printed by `standard bench --json` (`seed` of a game).
    #[arg(long, value_name = "S")]
    game_seed: Option<u64>,
    /// A fixed piece sequence: the letters O I S Z L J T, whitespace ignored; games end when it
    /// runs out (a regular file of at most 64 MiB).
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

/// The seed used when none is given.
const DEFAULT_SEED: u64 = 1;

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
    #[arg(long, default_value_t = 1, value_parser = int(1u8, 2))]
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
        let evaluator: Evaluator = self.ai.parse().map_err(|e| usage(format!("--ai: {e}")))?;
        let model: MoveModel = self
            .model
            .parse()
            .map_err(|e| usage(format!("--model: {e}")))?;
        let end_rule = EndRule::from(game.end_rule);
        if end_rule == EndRule::NoPlacement && model == MoveModel::Standard {
            return Err(usage(
                "--end-rule no-placement needs --model simplified: the standard model moves \
                 pieces from the spawn position",
            ));
        }
        Ok(PlayerConfig {
            lookahead: self.lookahead,
            exclude_game_ending: self.exclude_game_ending,
            end_rule,
            ..PlayerConfig::new(evaluator, model)
        })
    }
}

/// `standard watch` options.
#[derive(Debug, Args)]
pub struct WatchArgs {
    #[command(flatten)]
    ai: AiArgs,
    #[command(flatten)]
    game: GameArgs,
    /// Multiply the speed, 1/16 to 1024 (2 = twice as fast as the iteration delay).
    #[arg(long, default_value_t = 1.0, value_parser = real(1.0 / 16.0, 1024.0))]
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
        Command::Play(a) => views::play(&a),
        Command::Watch(a) => views::watch(&a),
        Command::Bench(a) => bench::run(&a),
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
    /// Reads the piece file and refuses options that do not apply; done before any game.
    fn sequence(&self) -> Result<Sequence> {
        if self.pieces.is_some() || self.sz {
            let source = if self.sz { "--sz" } else { "--pieces" };
            if self.seed.is_some() {
                return Err(not_applicable(
                    "--seed",
                    &format!("with {source} (the pieces are fixed)"),
                ));
            }
            if self.game_seed.is_some() {
                return Err(not_applicable(
                    "--game-seed",
                    &format!("with {source} (the pieces are fixed)"),
                ));
            }
        }
        if let Some(path) = &self.pieces {
            let text = read_text(path, "piece sequence", MAX_PIECES_BYTES)?;
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

    /// The run's seed.
    fn seed(&self) -> u64 {
        self.seed.unwrap_or(DEFAULT_SEED)
    }

    /// The seed of game `index`: `--game-seed` itself, or derived from `--seed`.
    fn game_seed(&self, index: u64) -> u64 {
        self.game_seed
            .unwrap_or_else(|| game_seed(self.seed(), index))
    }

    fn new_game(&self, sequence: &Sequence, index: u64) -> Result<(Game, u64)> {
        let seed = self.game_seed(index);
        let source = match sequence {
            Sequence::Random => PieceSource::random(seed),
            Sequence::Sz => PieceSource::alternating_sz(),
            Sequence::Fixed(p) => PieceSource::fixed(p.clone()),
        };
        let game = Game::new(self.height, self.level, source)?.with_end_rule(self.end_rule.into());
        Ok((game, seed))
    }
}
