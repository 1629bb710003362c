//! A scripted player that makes long, realistic input movies for tests and benchmarks: it walks
//! the menus to a chosen game and plays greedily (one piece, a few board features), pressing
//! buttons only. It is deliberately simple — the AI players live in `playfield-ai` — but it clears
//! lines, levels up, soft-drops for push-down points, reaches the endings and the high-score
//! screen, and plays several games in a row, so movies made with it exercise the whole engine.
//! The menus are driven by the engine's [`MenuDriver`], as the AI's games are.

use playfield_nes::raw::{game_mode, play_state};
use playfield_nes::tables::TILE_EMPTY;
use playfield_nes::{Buttons, Events, GameSetup, MenuDriver, Nes};
use playfield_rng::SplitMix64;

/// The level menu waits up to this many frames before each game, picked by the seed (the piece
/// RNG steps every frame there, so each wait gives another piece sequence).
pub const MAX_LEVEL_MENU_WAIT: u64 = 120;

/// What the scripted player is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AutoplayConfig {
    /// The game the menus are set to, every game.
    pub setup: GameSetup,
    /// Seed of the level menu's waits and of the optional noise.
    pub seed: u64,
    /// Games to play in a row (the menus are walked again between games).
    pub games: u32,
    /// Stop after this many frames.
    pub max_frames: u64,
    /// Mix in random taps, pauses and Select presses during play.
    pub noise: bool,
}

impl Default for AutoplayConfig {
    fn default() -> Self {
        AutoplayConfig {
            setup: GameSetup::a_type(0),
            seed: 1,
            games: 1,
            max_frames: 100_000,
            noise: false,
        }
    }
}

/// Plays from power-on as configured and returns the input movie (one entry per input line).
#[must_use]
pub fn autoplay_movie(config: &AutoplayConfig) -> Vec<Buttons> {
    let mut nes = Nes::power_on();
    let mut rng = SplitMix64::new(config.seed);
    let mut menus = MenuDriver::new(config.setup, rng.below(MAX_LEVEL_MENU_WAIT));
    let mut out = Vec::new();
    let mut plan: Vec<Buttons> = Vec::new();
    let mut plan_at = 0usize;
    let mut games_started = 0u32;
    let mut last = Buttons::NONE;
    let mut piece_seen = false;
    while (out.len() as u64) < config.max_frames {
        let buttons = if nes.raw().game_mode == game_mode::PLAY && nes.raw().game_mode_state >= 2 {
            let active = nes.raw().player.play_state == play_state::ACTIVE
                && nes.raw().render_mode == 3
                && nes.raw().player.current_piece < 19;
            if active && !piece_seen {
                piece_seen = true;
                plan = best_plan(&nes);
                plan_at = 0;
            }
            if !active {
                piece_seen = false;
            }
            let mut b = if active {
                let b = plan.get(plan_at).copied().unwrap_or(Buttons::DOWN);
                plan_at += 1;
                b
            } else if nes.raw().player.play_state == play_state::CURTAIN
                || nes.raw().render_mode != 3
                || nes.raw().player.play_state == play_state::GAME_OVER
            {
                // Curtain, endings, high-score entry, pause: tap Start now and then.
                if rng.below(8) == 0 && last.is_empty() {
                    Buttons::START
                } else {
                    Buttons::NONE
                }
            } else {
                Buttons::NONE
            };
            if config.noise && active && rng.below(200) == 0 {
                b = [Buttons::START, Buttons::SELECT, Buttons::B, Buttons::LEFT]
                    [rng.below(4) as usize];
            }
            b
        } else {
            menus.buttons(&nes, last)
        };
        let mode_before = nes.raw().game_mode;
        let events = nes.step(buttons);
        if mode_before == game_mode::LEVEL_MENU && nes.raw().game_mode == game_mode::PLAY {
            games_started += 1;
            menus = MenuDriver::new(config.setup, rng.below(MAX_LEVEL_MENU_WAIT));
        }
        if mode_before == game_mode::PLAY
            && nes.raw().game_mode == game_mode::LEVEL_MENU
            && games_started >= config.games
        {
            out.push(buttons);
            break;
        }
        out.push(buttons);
        last = buttons;
        if events.has(Events::UNSUPPORTED) {
            break;
        }
    }
    out
}

/// Tries every rotation and column from the spawn state, each played out in a copy of the
/// engine, and returns the inputs of the placement with the best board.
fn best_plan(nes: &Nes) -> Vec<Buttons> {
    let mut best: Option<(i64, Vec<Buttons>)> = None;
    for rotation in 0..4u8 {
        for dx in -5i8..=5 {
            let plan = make_plan(rotation, dx);
            let Some(score) = play_out(nes, &plan) else {
                continue;
            };
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, plan));
            }
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

/// Rotate and tap every other frame, then hold Down.
fn make_plan(rotation: u8, dx: i8) -> Vec<Buttons> {
    let mut plan = Vec::new();
    let rotations: &[Buttons] = match rotation {
        0 => &[],
        1 => &[Buttons::A],
        2 => &[Buttons::A, Buttons::A],
        _ => &[Buttons::B],
    };
    let shift = if dx > 0 {
        Buttons::RIGHT
    } else {
        Buttons::LEFT
    };
    let steps = rotations.len().max(dx.unsigned_abs() as usize);
    for i in 0..steps {
        let mut b = Buttons::NONE;
        if let Some(&r) = rotations.get(i) {
            b |= r;
        }
        if i < dx.unsigned_abs() as usize {
            b |= shift;
        }
        plan.push(b);
        plan.push(Buttons::NONE);
    }
    plan
}

/// Plays the plan (then Down) in a copy until the piece locks; scores the board, or `None` if
/// the plan did not get the piece where it aimed (it was blocked) or the game ended.
fn play_out(nes: &Nes, plan: &[Buttons]) -> Option<i64> {
    let mut sim = nes.clone();
    let mut cleared = 0u8;
    for frame in 0..2000usize {
        let b = plan.get(frame).copied().unwrap_or(Buttons::DOWN);
        let events = sim.step(b);
        if events.has(Events::TOP_OUT) || events.has(Events::UNSUPPORTED) {
            return None;
        }
        if events.has(Events::LOCK) {
            // Let the row check run so cleared rows are counted.
            for _ in 0..60 {
                let e = sim.step(Buttons::NONE);
                if e.has(Events::LINES_CLEARED) {
                    cleared = e.lines_cleared;
                }
                if sim.raw().player.play_state == play_state::ACTIVE || e.has(Events::SPAWN) {
                    break;
                }
            }
            return Some(evaluate(&sim.raw().playfield, cleared));
        }
    }
    None
}

/// A plain board evaluation: lines good; height, holes and bumpiness bad.
fn evaluate(playfield: &[u8; 256], cleared: u8) -> i64 {
    let mut heights = [0i64; 10];
    let mut holes = 0i64;
    for (x, h) in heights.iter_mut().enumerate() {
        let mut seen = false;
        for y in 0..20 {
            let filled = playfield[y * 10 + x] != TILE_EMPTY;
            if filled && !seen {
                seen = true;
                *h = 20 - y as i64;
            } else if !filled && seen {
                holes += 1;
            }
        }
    }
    let aggregate: i64 = heights.iter().sum();
    let bumpiness: i64 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
    let max = heights.iter().copied().max().unwrap_or(0);
    76 * i64::from(cleared) * i64::from(cleared)
        - 51 * aggregate
        - 360 * holes
        - 18 * bumpiness
        - if max > 14 { 200 * (max - 14) } else { 0 }
}
