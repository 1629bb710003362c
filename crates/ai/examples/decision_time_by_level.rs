//! Decision time per piece below level 100 and from level 100 on (where the player checks its
//! placements against the lag model's crashes and freezes), in one whole game of the score
//! player on the unmodified game from level 19, one thread, wall clock.
//!
//! `PLAYFIELD_ROM=Tetris.nes cargo run --release -p playfield-ai --example decision_time_by_level -- SEED [unlimited]`

use playfield_ai::nes::{GameConfig, InputModel, Player, game_seed, play_game_with_rom};
use playfield_nes::PlayState;
use playfield_rom::{EngineData, Rom};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().map_or(Ok(11), |s| s.parse())?;
    let unlimited = args.next().as_deref() == Some("unlimited");
    let path = std::env::var_os("PLAYFIELD_ROM").ok_or("set PLAYFIELD_ROM to the ROM's path")?;
    let rom = Rom::load(&path)?;
    let program = EngineData::from_rom(&rom)?.program;
    let config = GameConfig {
        max_lines: Some(3_500),
        // As `nes bench --format rom` and `unlimited` play it.
        survive_at_max_score: true,
        ..GameConfig::a_type(19, game_seed(seed, 0))
    };
    let input = if unlimited {
        InputModel::new("X", true, 0)
    } else {
        InputModel::new("X.", true, 18)
    }?;
    let player = Player::score(input);
    // The level at each lock, in the order of the decisions' times.
    let mut levels = Vec::new();
    let mut active = false;
    let game = play_game_with_rom(&config, &player, Some(program), |_, nes| {
        let now = nes.play_state() == PlayState::Active;
        if active && !now {
            levels.push(nes.level());
        }
        active = now;
        Ok(())
    });
    let (mut low, mut high): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    for (&micros, &level) in game.decision_micros.iter().zip(&levels) {
        if level >= 100 {
            high.push(micros);
        } else {
            low.push(micros);
        }
    }
    let percentile = |v: &mut Vec<u32>, p: f64| {
        v.sort_unstable();
        v.get(((v.len().max(1) - 1) as f64 * p).round() as usize)
            .map_or(0.0, |&m| f64::from(m) / 1000.0)
    };
    println!(
        "seed {seed}: end {:?}, level {}, {} lines, {} pieces",
        game.end,
        game.level,
        game.lines,
        game.decision_micros.len()
    );
    for (name, v) in [("below level 100", &mut low), ("from level 100", &mut high)] {
        let n = v.len();
        let (median, p99) = (percentile(v, 0.5), percentile(v, 0.99));
        println!("{name}: {n} pieces, median {median:.1} ms, p99 {p99:.1} ms");
    }
    Ok(())
}
