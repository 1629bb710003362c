//! The situations of the NES facts in docs/facts.md (the document), written once and run on any
//! console: the engine (the `claims` tests of `playfield-nes`) and the real ROM in tetanes-core
//! (the `claims` tests of `playfield-rom`). A console is driven only
//! through its gamepad and its 2 KiB of RAM, as the document's probes drove the ROM in Mesen, so
//! the same function measures both. Each returns what it measured; the tests assert the figures.

use playfield_nes::raw::{addr, game_mode, play_state};
use playfield_nes::tables::{ORIENTATIONS, SPAWN_TABLE, TILE_EMPTY};
use playfield_nes::{Buttons, Nes, Region};

/// A console running Tetris: a gamepad in, RAM out, and RAM written between frames.
pub trait Console {
    /// Runs one frame with player 1 holding `buttons`.
    fn step(&mut self, buttons: Buttons);
    /// The work RAM after the last frame.
    fn ram(&self) -> [u8; 0x800];
    /// Writes RAM between frames (in play).
    fn poke(&mut self, writes: &[(usize, u8)]);
}

/// The engine as a console.
pub struct Engine {
    /// The engine.
    pub nes: Nes,
}

impl Console for Engine {
    fn step(&mut self, buttons: Buttons) {
        self.nes.step(buttons);
        assert!(
            self.nes.unsupported().is_none(),
            "{:?}",
            self.nes.unsupported()
        );
    }
    fn ram(&self) -> [u8; 0x800] {
        self.nes.ram()
    }
    fn poke(&mut self, writes: &[(usize, u8)]) {
        let mut ram = self.nes.ram();
        for &(at, value) in writes {
            ram[at] = value;
        }
        self.nes = Nes::from_ram(&ram, self.nes.region()).expect("RAM written in play imports");
    }
}

// Offsets in the player block ($40 the working copy, $60 player 1's saved copy).
/// `tetriminoX`.
pub const TETRIMINO_X: usize = 0x00;
/// `tetriminoY`.
pub const TETRIMINO_Y: usize = 0x01;
/// `currentPiece`.
pub const CURRENT_PIECE: usize = 0x02;
/// `levelNumber`.
pub const LEVEL_NUMBER: usize = 0x04;
/// `fallTimer`.
pub const FALL_TIMER: usize = 0x05;
/// `autorepeatX`.
pub const AUTOREPEAT_X: usize = 0x06;
/// `startLevel`.
pub const START_LEVEL: usize = 0x07;
/// `playState`.
pub const PLAY_STATE: usize = 0x08;
/// `autorepeatY`.
pub const AUTOREPEAT_Y: usize = 0x0E;
/// `lines`.
pub const LINES: usize = 0x10;
/// `score`.
pub const SCORE: usize = 0x13;
/// `completedLines`.
pub const COMPLETED_LINES: usize = 0x16;

/// A player variable, read from the working copy.
pub fn player(c: &impl Console, offset: usize) -> u8 {
    c.ram()[addr::PLAYER + offset]
}

/// Writes a player variable in both copies (play copies $60 to $40 before each update).
pub fn poke_player(c: &mut impl Console, writes: &[(usize, u8)]) {
    let all: Vec<(usize, u8)> = writes
        .iter()
        .flat_map(|&(o, v)| [(addr::PLAYER + o, v), (addr::PLAYER1 + o, v)])
        .collect();
    c.poke(&all);
}

/// The score as a number (BCD in RAM).
pub fn score(c: &impl Console) -> u32 {
    let r = c.ram();
    let s = addr::PLAYER + SCORE;
    (0..3)
        .rev()
        .fold(0, |acc, i| acc * 100 + u32::from(bcd(r[s + i])))
}

/// Lines as a number (BCD in RAM).
pub fn lines(c: &impl Console) -> u32 {
    let r = c.ram();
    let l = addr::PLAYER + LINES;
    u32::from(bcd(r[l + 1])) * 100 + u32::from(bcd(r[l]))
}

fn bcd(b: u8) -> u8 {
    (b >> 4) * 10 + (b & 0x0F)
}

/// A number below 100 as BCD.
pub fn to_bcd(n: u32) -> u8 {
    (((n / 10 % 10) << 4) | (n % 10)) as u8
}

/// Drives the menus, one press at a time, until the first piece of a game is under control.
/// Levels 10-19 are chosen with A held on Start, as a player does.
///
/// Not `playfield_nes::MenuDriver`: the facts' situations were set up on the pieces this exact
/// path deals (its frame count on the level menu picks them), and some figures depend on the
/// piece (how far it reaches, when DAS carries).
pub fn start_game(c: &mut impl Console, game_type: u8, level: u8) {
    let mut last = Buttons::NONE;
    for _ in 0..5_000 {
        let r = c.ram();
        if r[addr::GAME_MODE] == game_mode::PLAY
            && r[addr::GAME_MODE_STATE] >= 2
            && r[addr::PLAYER + PLAY_STATE] == play_state::ACTIVE
        {
            return;
        }
        let start_level = r[addr::PLAYER1 + START_LEVEL];
        let want = match r[addr::GAME_MODE] {
            game_mode::GAME_TYPE_MENU if r[addr::GAME_TYPE] != game_type => Buttons::RIGHT,
            game_mode::LEVEL_MENU if start_level < level % 10 => Buttons::RIGHT,
            game_mode::LEVEL_MENU if level >= 10 && last == Buttons::A => {
                Buttons::A | Buttons::START
            }
            game_mode::LEVEL_MENU if level >= 10 => Buttons::A,
            _ => Buttons::START,
        };
        let buttons = if last.is_empty() || last == Buttons::A {
            want
        } else {
            Buttons::NONE
        };
        c.step(buttons);
        last = buttons;
    }
    panic!("the menus did not reach a game");
}

/// Frames until `tetriminoY` changes, holding `buttons` (at most `limit`).
pub fn frames_until_drop(c: &mut impl Console, buttons: Buttons, limit: u32) -> Option<u32> {
    let y = player(c, TETRIMINO_Y);
    for frames in 1..=limit {
        c.step(buttons);
        if player(c, TETRIMINO_Y) != y {
            return Some(frames);
        }
    }
    None
}

/// Runs until the next piece is under control (play state 1 with a fresh piece at row 0).
pub fn until_next_piece(c: &mut impl Console, buttons: Buttons) -> u32 {
    let mut left = false;
    for frames in 1..2_000 {
        c.step(buttons);
        let active = player(c, PLAY_STATE) == play_state::ACTIVE;
        if !active {
            left = true;
        } else if left {
            return frames;
        }
    }
    panic!("no next piece");
}

/// Frames (1-based, counted from the first held frame) on which `tetriminoX` changed while
/// `input(frame)` was held, for `frames` frames.
pub fn moves(c: &mut impl Console, frames: u32, input: impl Fn(u32) -> Buttons) -> Vec<u32> {
    let mut out = Vec::new();
    let mut x = player(c, TETRIMINO_X);
    for f in 0..frames {
        c.step(input(f));
        let now = player(c, TETRIMINO_X);
        if now != x {
            out.push(f);
            x = now;
        }
    }
    out
}

/// Gravity: frames per row at `level`, measured over four rows of a piece already falling.
pub fn frames_per_row(c: &mut impl Console, level: u8) -> Vec<u32> {
    poke_player(
        c,
        &[(LEVEL_NUMBER, level), (AUTOREPEAT_Y, 0), (TETRIMINO_Y, 0)],
    );
    // The first drop comes whenever the running fall timer reaches the new speed.
    frames_until_drop(c, Buttons::NONE, 100).expect("falls");
    (0..4)
        .map(|_| frames_until_drop(c, Buttons::NONE, 100).expect("falls"))
        .collect()
}

/// Fills `cells` (row, column) of the playfield with a block.
pub fn fill(c: &mut impl Console, cells: impl IntoIterator<Item = (usize, usize)>) {
    let writes: Vec<(usize, u8)> = cells
        .into_iter()
        .map(|(row, column)| (addr::PLAYFIELD + row * 10 + column, 0x7B))
        .collect();
    c.poke(&writes);
}

/// Empties the playfield.
pub fn clear_playfield(c: &mut impl Console) {
    let writes: Vec<(usize, u8)> = (0..200)
        .map(|i| (addr::PLAYFIELD + i, TILE_EMPTY))
        .collect();
    c.poke(&writes);
}

/// Puts `piece` at (`x`, `start_row`) with the fall timer and soft drop reset and the next piece
/// made a T, waits `delay` frames with the piece held in place (to move its lock to another phase
/// of the frame counter), lets it fall until it locks, and returns (frames from the frame the
/// piece locks, counted as frame 0, to the frame the next piece is under control;
/// `frameCounter` mod 4 at the lock). The caller builds the stack it lands on.
pub fn lock_to_spawn(
    c: &mut impl Console,
    piece: u8,
    x: u8,
    start_row: u8,
    delay: u32,
) -> (u32, u16) {
    c.poke(&[(addr::NEXT_PIECE, 0x02)]);
    let place = [
        (CURRENT_PIECE, piece),
        (TETRIMINO_X, x),
        (TETRIMINO_Y, start_row),
        (AUTOREPEAT_Y, 0),
        (FALL_TIMER, 0),
    ];
    poke_player(c, &place);
    for _ in 0..delay {
        c.step(Buttons::NONE);
        poke_player(c, &place);
    }
    let mut locked = false;
    let mut frames = 0u32;
    let mut phase = 0u16;
    for _ in 0..600 {
        c.step(Buttons::NONE);
        let r = c.ram();
        let state = r[addr::PLAYER + PLAY_STATE];
        if !locked && state != play_state::ACTIVE {
            locked = true;
            phase = u16::from_le_bytes([r[addr::FRAME_COUNTER], r[addr::FRAME_COUNTER + 1]]) % 4;
            continue;
        }
        if locked {
            frames += 1;
            if state == play_state::ACTIVE {
                return (frames, phase);
            }
        }
    }
    panic!("the piece never locked and respawned");
}

/// `pickRandomTetrimino` of the engine, for one generator state, pick count and previous piece:
/// returns the piece picked.
pub fn engine_pick(nes: &mut Nes, rng: u16, spawn_count: u8, previous: u8) -> u8 {
    nes.raw_mut().rng_seed = rng;
    nes.raw_mut().spawn_count = spawn_count;
    nes.raw_mut().spawn_id = previous;
    nes.choose_next_tetrimino()
}

/// Index of an orientation id in `spawnTable` (T J Z O S L I).
pub fn spawn_index(piece: u8) -> usize {
    SPAWN_TABLE
        .iter()
        .position(|&p| p == piece)
        .expect("a spawn orientation")
}

/// The columns a spawn orientation covers at `tetriminoX` = 5.
pub fn spawn_columns(piece: u8) -> (i8, i8) {
    let minos = &ORIENTATIONS[usize::from(piece)];
    let xs = minos.iter().map(|m| 5 + m.dx);
    (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0))
}

/// The engine powered on in `region`.
pub fn engine(region: Region) -> Engine {
    Engine {
        nes: Nes::power_on_region(region),
    }
}
