//! `playfield`: the one binary. Parsing and output only; the games and players live in the library
//! crates.

mod minijong;
mod nes;
mod nes_play;
mod nes_watch;
mod plot;
mod standard;
mod tui;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Classic puzzle games, exactly as they were, and the AI players that play them.
#[derive(Debug, Parser)]
#[command(name = "playfield", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// NES Tetris (USA): replay movies, play, watch the AI.
    #[command(subcommand)]
    Nes(nes::Command),
    /// Colin Fahey's Standard Tetris: watch, play, benchmark AI players.
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Nes(cmd)) => nes::run(cmd),
        Some(Command::Standard(cmd)) => standard::run(cmd),
        Some(Command::Minijong(cmd)) => minijong::run(cmd),
        Some(Command::Serve(args)) => playfield_web::serve(&playfield_web::ServeConfig {
            host: args.host,
            port: args.port,
        })
        .map_err(anyhow::Error::from),
        None => nes::run_default(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // A closed pipe (`playfield ... | head`) is not an error worth reporting.
            if let Some(io) = err.downcast_ref::<std::io::Error>()
                && io.kind() == std::io::ErrorKind::BrokenPipe
            {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
