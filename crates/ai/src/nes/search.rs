//! Move search: every lock placement a piece can reach with gamepad input, each with the exact
//! per-frame buttons that reach it.
//!
//! The search runs a model of the frames in which the piece is under the player's control: the
//! frame's `fallTimer` increment (`gameModeState_updateCountersAndNonPlayerState`), then
//! `shift_tetrimino`, `rotate_tetrimino` and `drop_tetrimino` of `playState_playerControlsActiveTetrimino`,
//! with `isPositionValid` on the whole playfield page as the ROM does (rows −2..−1 read the page's
//! bytes 236-255). The model is small and plain so that a node costs a few nanoseconds; the
//! property tests in `tests/it/nes_search.rs` prove it equal to `playfield-nes` frame by frame.
//!
//! It is a breadth-first search over frames, deduplicated on everything that decides the future:
//! x, y, orientation, `autorepeatX`, `fallTimer`, `autorepeatY`, the held buttons and the input
//! timeline's phase. Breadth-first order means each placement comes with one of its shortest input
//! sequences.

use playfield_nes::rules::{self, Das};
use playfield_nes::tables::ROTATION_TABLE;
use playfield_nes::{Buttons, Nes, Orientation};

use super::input::InputModel;

const RIGHT: u8 = Buttons::RIGHT.bits();
const LEFT: u8 = Buttons::LEFT.bits();
const DOWN: u8 = Buttons::DOWN.bits();
const A: u8 = Buttons::A.bits();
const B: u8 = Buttons::B.bits();

/// The d-pad holds the search tries: nothing, one direction, Down (the input model allows no
/// diagonals). Down comes last so that it can be cut when soft drop is off.
const DPAD_CHOICES: [u8; 4] = [0, LEFT, RIGHT, DOWN];
/// Rotation presses: holding A or B past its press frame never helps (only a new press rotates),
/// so the search releases them at once; this loses no placement.
const ROTATE_CHOICES: [u8; 3] = [0, A, B];

/// The part of the engine's state that decides where the active piece goes: the movement
/// rule's state, and what the search adds for the buttons and the input timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceState {
    /// Position, orientation, DAS and fall timers.
    pub piece: rules::PieceState,
    /// `heldButtons_player1` of the last frame (decides which buttons are newly pressed).
    pub held: u8,
    /// Frames the piece has been under control since it spawned (the input timeline's clock).
    pub frame: u32,
}

impl PieceState {
    /// The active piece's state in a running engine ([`Nes::piece_state`]), `frame` frames after
    /// it spawned; `None` when the orientation is hidden (the game over).
    #[must_use]
    pub fn from_nes(nes: &Nes, frame: u32) -> Option<Self> {
        Some(PieceState::from_rule(
            nes.piece_state()?,
            nes.held_buttons().bits(),
            frame,
        ))
    }

    /// The engine's movement state with the buttons held on the last frame and the timeline's
    /// clock.
    #[must_use]
    pub const fn from_rule(piece: rules::PieceState, held: u8, frame: u32) -> Self {
        PieceState { piece, held, frame }
    }

    /// A freshly spawned piece: (5, 0), timers cleared, `autorepeatX` carried over.
    #[must_use]
    pub const fn spawn(orientation: Orientation, autorepeat_x: u8) -> Self {
        PieceState::from_rule(rules::PieceState::spawn(orientation, autorepeat_x), 0, 0)
    }

    /// The deduplication key. Parts that cannot change the future are blanked so equivalent
    /// states meet: `autorepeatX` when neither Left nor Right is held (the next Left or Right is a
    /// new press, which zeroes it), and held A/B when the next frame cannot carry a new press.
    fn key(&self, period: u32, next_may_press: bool) -> u64 {
        let autorepeat_x = if self.held & (LEFT | RIGHT) != 0 {
            self.piece.autorepeat_x
        } else {
            0
        };
        let held = if next_may_press {
            self.held
        } else {
            self.held & !(A | B)
        };
        u64::from(self.piece.x)
            | u64::from(self.piece.y) << 8
            | u64::from(self.piece.orientation.id()) << 16
            | u64::from(autorepeat_x) << 24
            | u64::from(self.piece.fall_timer) << 32
            | u64::from(self.piece.autorepeat_y) << 40
            | u64::from(held) << 48
            | u64::from(self.frame % period) << 56
    }
}

pub use playfield_nes::rules::{drop_speed, is_position_valid};

pub use playfield_nes::rules::Gravity;

/// What one frame did to the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameResult {
    /// The piece is still under control.
    Active,
    /// The drop was blocked: the piece locks where it is on the next frame.
    Locked,
}

/// One frame of the active piece with `buttons` held, as the engine runs it: the frame's
/// `fallTimer` count (`gameModeState_updateCountersAndNonPlayerState`), then the movement rule
/// ([`rules::PieceState::control_frame`], NTSC).
#[inline]
pub fn step_piece(
    page: &[u8; 256],
    s: &mut PieceState,
    buttons: u8,
    gravity: Gravity,
) -> FrameResult {
    let newly = buttons & !s.held;
    s.held = buttons;
    s.frame += 1;
    let piece = &mut s.piece;
    piece.fall_timer = piece.fall_timer.wrapping_add(1);
    let moved = piece.control_frame(
        page,
        Buttons::from_bits_retain(newly),
        Buttons::from_bits_retain(buttons),
        Das::of(playfield_nes::Region::Ntsc),
        gravity,
    );
    if moved.locked {
        FrameResult::Locked
    } else {
        FrameResult::Active
    }
}

/// Where a piece locks, and how to get there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// `tetriminoX` at lock.
    pub x: u8,
    /// `tetriminoY` at lock.
    pub y: u8,
    /// Orientation id at lock.
    pub orientation: u8,
    /// `autorepeatX` at lock (carried over to the next piece).
    pub autorepeat_x: u8,
    /// Frames from the search's start to the frame the drop is blocked.
    pub frames: u32,
    /// The search node whose frame locks (for [`Searcher::inputs`]).
    node: u32,
}

impl Placement {
    /// The placement that `inputs` (one entry per frame from `start`, the last the frame whose
    /// drop is blocked) lead to, replayed with the searcher's frame model; `None` when they do
    /// not lock on their last frame. For sequences found by another search (the sweep): the
    /// result carries no search node, so [`Searcher::inputs`] gives nothing for it.
    #[must_use]
    pub fn replayed(
        page: &[u8; 256],
        start: PieceState,
        gravity: Gravity,
        inputs: &[Buttons],
    ) -> Option<Placement> {
        let mut s = start;
        let (last, before) = inputs.split_last()?;
        for b in before {
            if step_piece(page, &mut s, b.bits(), gravity) == FrameResult::Locked {
                return None;
            }
        }
        (step_piece(page, &mut s, last.bits(), gravity) == FrameResult::Locked).then_some(
            Placement {
                x: s.piece.x,
                y: s.piece.y,
                orientation: s.piece.orientation.id(),
                autorepeat_x: s.piece.autorepeat_x,
                frames: u32::try_from(inputs.len()).unwrap_or(u32::MAX),
                node: u32::MAX,
            },
        )
    }
}

#[derive(Clone, Copy)]
struct Node {
    state: PieceState,
    parent: u32,
    buttons: u8,
}

/// An open-addressing set of packed state keys, cleared in O(1) by a generation stamp (the
/// search's hottest structure: a std `HashSet` costs several times more per node).
#[derive(Default)]
struct KeySet {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    generation: u32,
    len: usize,
}

impl KeySet {
    fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
        self.len = 0;
    }

    #[inline]
    fn slot(key: u64, mask: usize) -> usize {
        let h = (key ^ (key >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        ((h ^ (h >> 32)) as usize) & mask
    }

    /// Inserts `key`; false when it was already there.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = Self::slot(key, mask);
        loop {
            if self.stamps[i] != self.generation {
                self.stamps[i] = self.generation;
                self.keys[i] = key;
                self.len += 1;
                return true;
            }
            if self.keys[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old_keys = std::mem::take(&mut self.keys);
        let old_stamps = std::mem::take(&mut self.stamps);
        let size = (old_keys.len() * 2).max(1 << 12);
        self.keys = vec![0; size];
        self.stamps = vec![0; size];
        let generation = self.generation.max(1);
        self.generation = generation;
        self.len = 0;
        for (k, st) in old_keys.into_iter().zip(old_stamps) {
            if st == generation {
                let mask = size - 1;
                let mut i = Self::slot(k, mask);
                while self.stamps[i] == generation {
                    i = (i + 1) & mask;
                }
                self.stamps[i] = generation;
                self.keys[i] = k;
                self.len += 1;
            }
        }
    }
}

/// Reusable search buffers (no allocation per node once warmed up).
#[derive(Default)]
pub struct Searcher {
    nodes: Vec<Node>,
    visited: KeySet,
    locks: KeySet,
    placements: Vec<Placement>,
    frontier: Vec<u32>,
    next: Vec<u32>,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("nodes", &self.nodes.len())
            .finish_non_exhaustive()
    }
}

impl Searcher {
    /// An empty searcher.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Every placement reachable from `start` under `model` with `gravity` (a level, or
    /// [`Gravity`]), one per
    /// (x, y, orientation), each with the earliest lock frame found. Placements where the piece
    /// would lock overlapping the stack (a top-out) are left out.
    pub fn search(
        &mut self,
        page: &[u8; 256],
        start: PieceState,
        gravity: impl Into<Gravity>,
        model: &InputModel,
    ) -> &[Placement] {
        let gravity = gravity.into();
        self.nodes.clear();
        self.visited.clear();
        self.locks.clear();
        self.placements.clear();
        self.frontier.clear();
        let period = model.timeline.len().max(1) as u32;
        self.nodes.push(Node {
            state: start,
            parent: u32::MAX,
            buttons: 0,
        });
        self.visited
            .insert(start.key(period, model.may_press(start.frame + 1)));
        let dpad_choices = if model.soft_drop {
            &DPAD_CHOICES[..]
        } else {
            &DPAD_CHOICES[..3]
        };
        self.frontier.push(0);
        while !self.frontier.is_empty() {
            self.next.clear();
            for fi in 0..self.frontier.len() {
                let index = self.frontier[fi];
                let node = self.nodes[index as usize];
                let s = node.state;
                let may_press = model.may_press(s.frame + 1);
                let prev_dpad = s.held & (LEFT | RIGHT | DOWN);
                let next_may_press = model.may_press(s.frame + 2);
                for &dpad in dpad_choices {
                    let new_dpad = dpad & !prev_dpad;
                    if new_dpad != 0 && !may_press {
                        continue;
                    }
                    if !model.das
                        && dpad & (LEFT | RIGHT) != 0
                        && dpad & prev_dpad & (LEFT | RIGHT) != 0
                    {
                        continue;
                    }
                    for &rot in &ROTATE_CHOICES {
                        if rot != 0 && (!may_press || s.held & rot != 0) {
                            continue;
                        }
                        let buttons = dpad | rot;
                        let mut t = s;
                        match step_piece(page, &mut t, buttons, gravity) {
                            FrameResult::Locked => {
                                if !is_position_valid(
                                    page,
                                    t.piece.x,
                                    t.piece.y,
                                    t.piece.orientation.id(),
                                ) {
                                    continue;
                                }
                                let pkey = u64::from(t.piece.x)
                                    | u64::from(t.piece.y) << 8
                                    | u64::from(t.piece.orientation.id()) << 16;
                                if !self.locks.insert(pkey) {
                                    continue;
                                }
                                let id = self.nodes.len() as u32;
                                self.nodes.push(Node {
                                    state: t,
                                    parent: index,
                                    buttons,
                                });
                                self.placements.push(Placement {
                                    x: t.piece.x,
                                    y: t.piece.y,
                                    orientation: t.piece.orientation.id(),
                                    autorepeat_x: t.piece.autorepeat_x,
                                    frames: t.frame - start.frame,
                                    node: id,
                                });
                            }
                            FrameResult::Active => {
                                let key = t.key(period, next_may_press);
                                if !self.visited.insert(key) {
                                    continue;
                                }
                                let id = self.nodes.len() as u32;
                                self.nodes.push(Node {
                                    state: t,
                                    parent: index,
                                    buttons,
                                });
                                self.next.push(id);
                            }
                        }
                    }
                }
            }
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        &self.placements
    }

    /// The placements of the last search.
    #[must_use]
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// Nodes (distinct states) the last search visited.
    #[must_use]
    pub fn nodes_visited(&self) -> usize {
        self.nodes.len()
    }

    /// The buttons for each frame from the search's start to the placement's lock frame (the
    /// last entry is the frame whose drop is blocked).
    #[must_use]
    pub fn inputs(&self, placement: &Placement) -> Vec<Buttons> {
        let mut out = Vec::with_capacity(placement.frames as usize);
        let mut i = placement.node;
        while i != 0 && i != u32::MAX {
            let node = &self.nodes[i as usize];
            out.push(Buttons::from_bits_retain(node.buttons));
            i = node.parent;
        }
        out.reverse();
        out
    }
}

/// Lock placements reachable when time does not matter: Birken's own search, a breadth-first
/// search over (x, y, orientation) from (5, 0) with moves left, right, rotate either way and
/// down, a placement wherever down is blocked. At slow gravity a player has many presses per row,
/// so this is what input can reach there (tucks and spins included), at a thousandth of the
/// frame-exact search's cost. The player uses it only to estimate the preview piece's best
/// placement at slow levels; moves that are played always come from [`Searcher::search`].
#[must_use]
pub fn free_placements(page: &[u8; 256], orientation: u8) -> Vec<(u8, u8, u8)> {
    let mut out = Vec::new();
    if !is_position_valid(page, 5, 0, orientation) {
        return out;
    }
    // x 0-9, y 0-21 (rows −2..−1 read as y 254-255 wrap; a spawned piece never goes up), id 0-18.
    let mut seen = vec![false; 10 * 22 * 19];
    let index = |x: u8, y: u8, o: u8| (usize::from(o) * 22 + usize::from(y)) * 10 + usize::from(x);
    let mut queue = vec![(5u8, 0u8, orientation)];
    seen[index(5, 0, orientation)] = true;
    let mut head = 0;
    while head < queue.len() {
        let (x, y, o) = queue[head];
        head += 1;
        let rotations = ROTATION_TABLE
            .get(usize::from(o))
            .copied()
            .unwrap_or([o, o]);
        let moves = [
            (x.wrapping_sub(1), y, o),
            (x.wrapping_add(1), y, o),
            (x, y, rotations[0]),
            (x, y, rotations[1]),
            (x, y.wrapping_add(1), o),
        ];
        for (i, &(nx, ny, no)) in moves.iter().enumerate() {
            if nx >= 10 || ny >= 22 || !is_position_valid(page, nx, ny, no) {
                if i == 4 {
                    out.push((x, y, o));
                }
                continue;
            }
            let k = index(nx, ny, no);
            if !seen[k] {
                seen[k] = true;
                queue.push((nx, ny, no));
            }
        }
    }
    out
}
