//! `playfield`: the one binary. It turns arguments into library configs and formats results;
//! the games, players, statistics and charts live in the library crates.
//!
//! What it guarantees on bad input (see the README): every option is checked, with its range,
//! before work starts ([`checks`]); inputs are read only from regular files of bounded size
//! ([`files`]); outputs are checked before work starts and written atomically ([`files`]); all
//! results go through one output path, where a closed pipe ends the command quietly and any other
//! write error is an error ([`output`]); a terminal view restores the terminal on q, on errors,
//! on panics and on SIGTERM/SIGHUP ([`signals`]).

mod checks;
mod files;
mod minijong;
mod nes;
mod output;
mod signals;
mod standard;
mod tui;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Classic puzzle games, exactly as they were, and the AI players that play them.
#[derive(Debug, Parser)]
// `--player` and `--weights` here choose the player of the command-less view; with a command
// they would be ignored, so clap refuses them there (each command takes its own).
#[command(
    name = "playfield",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true,
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// With no command: watch this player (in a terminal) or print its game's summary.
    #[command(flatten)]
    who: nes::players::PlayerArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// NES Tetris (USA): play, watch the AI, bench the AI, replay movies.
    #[command(subcommand)]
    Nes(nes::Command),
    /// Colin Fahey's Standard Tetris: play, watch and bench AI players.
    #[command(subcommand)]
    Standard(standard::Command),
    /// Minijong, a tiny Mahjong solitaire: play, solve, statistics.
    #[command(subcommand)]
    Minijong(minijong::Command),
    /// Serve the web page: watch, replay, analyse and play in the browser.
    Serve(ServeArgs),
}

/// Arguments of `serve`.
#[derive(Debug, clap::Args)]
struct ServeArgs {
    /// Port to listen on (0 = any free port).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    port: u16,
    /// Address to bind (the page has no authentication: keep 127.0.0.1 unless you mean it).
    #[arg(long, value_name = "H", default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Tetris (USA) ROM, whose program the lag model runs at the highest levels, and whose demo
    /// tables the title screen's demo reads (default: $PLAYFIELD_ROM); its SHA-1 is checked.
    /// Without it the pages do not model lag frames or crashes, and say so from level 100.
    #[arg(long, value_name = "PATH", env = "PLAYFIELD_ROM")]
    rom: Option<std::path::PathBuf>,
}

/// `serve`: checks the ROM before anything is bound, then serves.
fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let rom = args
        .rom
        .as_ref()
        .map(playfield_rom::EngineData::load)
        .transpose()
        .context(checks::rom_option())?;
    playfield_web::serve(&playfield_web::ServeConfig {
        host: args.host,
        port: args.port,
        rom,
    })?;
    Ok(())
}

/// `cmd` with `--rom`'s default from `$PLAYFIELD_ROM` dropped everywhere: the variable is set
/// but empty, which means no ROM (as the tests read it), where clap would take the empty text
/// as `--rom`'s value and refuse it.
fn without_rom_env(mut cmd: clap::Command) -> clap::Command {
    if cmd.get_arguments().any(|a| a.get_id() == "rom") {
        cmd = cmd.mut_arg("rom", |a| a.env(None::<&str>));
    }
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, without_rom_env);
    }
    cmd
}

/// The command line, read.
fn parse_command_line() -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    if std::env::var_os("PLAYFIELD_ROM").is_none_or(|v| !v.is_empty()) {
        return Cli::parse();
    }
    let matches = without_rom_env(Cli::command()).get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

fn main() -> ExitCode {
    let cli = parse_command_line();
    let who = cli.who;
    let result = match cli.command {
        Some(Command::Nes(cmd)) => nes::run(cmd),
        Some(Command::Standard(cmd)) => standard::run(cmd),
        Some(Command::Minijong(cmd)) => minijong::run(cmd),
        Some(Command::Serve(args)) => serve(&args),
        None => nes::run_default(&who),
    };
    if let Some(signal) = signals::received() {
        // The view has restored the terminal; end as the signal would have.
        return ExitCode::from(u8::try_from(128 + signal).unwrap_or(1));
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`playfield ... | head`) means the reader has what it wanted.
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        // Options that do not go together are bad usage, like the ones clap finds.
        Err(err) if checks::is_usage(&err) => {
            output::note(format!("error: {err:#}"));
            ExitCode::from(2)
        }
        Err(err) => {
            output::note(format!("error: {err:#}"));
            ExitCode::FAILURE
        }
    }
}
