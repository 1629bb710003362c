//! Exact solver: depth-first search over positions (which tiles are left, a 128-bit set), with a
//! transposition set, an upper bound, and one safe forced move.
//!
//! The objective is the most pairs removable from a position. A deal is *winnable* when that
//! clears it to at most one tile (the odd tile of the 83). The search stops as soon as it reaches
//! the upper bound, so winnable deals end at their first clearing line; unwinnable ones are
//! searched to the end and give the best reachable result and the line that reaches it.
//!
//! Why the pieces are exact:
//! - Transpositions: a position determines how many pairs were removed to reach it, and the bound
//!   only ever tightens, so a position already searched never has to be searched again.
//! - Bound: copies of a face in the same stack can never pair (only the top one is visible), so a
//!   face with `n` copies left, at most `m` of them in one stack, gives at most
//!   `min(n / 2, n - m)` more pairs.
//! - Forced move: in this rule set a removal can *block* (uncovering a level-L tile can give a
//!   level-L neighbour a same-level side), so the usual "take any free pair" shortcuts are unsafe.
//!   Emptying a level-0 position only ever frees tiles, though, so when every copy left of a face
//!   is free and on level 0 and there is an even number of them, taking them all first loses
//!   nothing: any line that took them later, or not at all, still works after.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board::{Board, Face, POSITIONS, SLOTS, Slot, stack_slot};
use crate::rules::{self, Heights, Pair};

/// The solver's answer for one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The position can be cleared to at most one tile.
    pub winnable: bool,
    /// Pairs in play order: a clearing line when winnable, else a line to the best result.
    pub moves: Vec<Pair>,
    /// Tiles left at the end of `moves` (the best reachable result).
    pub tiles_left: usize,
    /// Positions visited (a measure of the work done).
    pub nodes: u64,
}

/// Solves the deal from its start.
#[must_use]
pub fn solve(board: &Board) -> Solution {
    solve_from(board, &board.initial_heights())
}

/// Solves from any position of `board` (for hints and the solver tests).
#[must_use]
pub fn solve_from(board: &Board, heights: &Heights) -> Solution {
    let mut search = Search::new(board, heights);
    let mut h = *heights;
    let key = search.start_key;
    search.dfs(&mut h, key, 0);
    let tiles = rules::tiles_left(heights);
    let tiles_left = tiles - 2 * search.best_path.len();
    Solution { winnable: tiles_left <= 1, moves: search.best_path, tiles_left, nodes: search.nodes }
}

/// "Solvable deals only": the deal of `seed` if it is winnable, else of `seed + 1`, and so on
/// (deal, solve, redeal with the next seed), so winnable deals keep their random-deal
/// distribution. Returns the seed used, its board and its solution.
#[must_use]
pub fn solvable_deal(seed: u64) -> (u64, Board, Solution) {
    let mut s = seed;
    loop {
        let board = Board::deal(s);
        let solution = solve(&board);
        if solution.winnable {
            return (s, board, solution);
        }
        s = s.wrapping_add(1);
    }
}

/// A fast hasher for the 128-bit position keys (they are already well spread bit sets).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7CC1_B727_220A_95);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let x = (x ^ (x >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        self.0 = x ^ (x >> 32);
    }
}

type KeySet = HashSet<u128, BuildHasherDefault<KeyHasher>>;

/// A tile of one face: where it stands.
#[derive(Clone, Copy)]
struct Copy_ {
    pos: u8,
    level: u8,
}

struct Search {
    faces: [Face; SLOTS],
    /// For every face on the board, where its copies stand (in slot order).
    copies: Vec<Vec<Copy_>>,
    /// Index into `copies` for each face value.
    face_index: [u8; 64],
    visited: KeySet,
    path: Vec<Pair>,
    best_path: Vec<Pair>,
    /// Pairs that would reach the root's upper bound: stop there.
    goal: usize,
    done: bool,
    nodes: u64,
    start_key: u128,
}

impl Search {
    fn new(board: &Board, heights: &Heights) -> Self {
        let faces = *board.faces();
        let mut face_index = [u8::MAX; 64];
        let mut copies: Vec<Vec<Copy_>> = Vec::new();
        let mut start_key = 0u128;
        for pos in 0..POSITIONS {
            for level in 0..heights[pos] as usize {
                let slot = stack_slot(pos, level);
                let f = faces[slot] as usize;
                start_key |= 1 << slot;
                if face_index[f] == u8::MAX {
                    face_index[f] = copies.len() as u8;
                    copies.push(Vec::new());
                }
                copies[face_index[f] as usize].push(Copy_ { pos: pos as u8, level: level as u8 });
            }
        }
        let mut s = Self {
            faces,
            copies,
            face_index,
            visited: KeySet::default(),
            path: Vec::new(),
            best_path: Vec::new(),
            goal: 0,
            done: false,
            nodes: 0,
            start_key,
        };
        s.goal = s.upper_bound(heights);
        s
    }

    /// Most pairs still removable, counting faces independently (see the module docs).
    fn upper_bound(&self, h: &Heights) -> usize {
        let mut total = 0;
        for group in &self.copies {
            let mut n = 0;
            let mut most = 0;
            for (i, c) in group.iter().enumerate() {
                if c.level >= h[c.pos as usize] {
                    continue;
                }
                n += 1;
                // Copies in the same stack as this one, counted once from the first of them.
                let earlier_same = group[..i].iter().any(|d| d.pos == c.pos && d.level < h[d.pos as usize]);
                if !earlier_same {
                    let k = group[i..]
                        .iter()
                        .filter(|d| d.pos == c.pos && d.level < h[d.pos as usize])
                        .count();
                    most = most.max(k);
                }
            }
            total += (n / 2).min(n - most);
        }
        total
    }

    fn take(&mut self, h: &mut Heights, key: &mut u128, a: usize, b: usize) {
        let pair = Pair { a: rules::top_slot(h, a), b: rules::top_slot(h, b) };
        *key &= !(1u128 << pair.a.index());
        *key &= !(1u128 << pair.b.index());
        h[a] -= 1;
        h[b] -= 1;
        self.path.push(pair);
    }

    fn put_back(&mut self, h: &mut Heights, n: usize) {
        for _ in 0..n {
            let pair = self.path.pop().expect("taken before");
            h[pair.a.position()] += 1;
            h[pair.b.position()] += 1;
        }
    }

    fn dfs(&mut self, h: &mut Heights, key: u128, depth: usize) {
        self.nodes += 1;
        if depth > self.best_path.len() {
            self.best_path.clone_from(&self.path);
            if depth >= self.goal {
                self.done = true;
                return;
            }
        }
        if !self.visited.insert(key) {
            return;
        }
        if depth + self.upper_bound(h) <= self.best_path.len() {
            return;
        }
        // Free visible tiles grouped by face: (face group, position, level).
        let mut free: [(u8, u8, u8); POSITIONS] = [(0, 0, 0); POSITIONS];
        let mut nfree = 0;
        let mut free_count = [0u8; 64];
        for pos in 0..POSITIONS {
            if rules::is_free(h, pos) {
                let level = h[pos] - 1;
                let g = self.face_index[self.faces[stack_slot(pos, level as usize)] as usize];
                free[nfree] = (g, pos as u8, level);
                nfree += 1;
                free_count[g as usize] += 1;
            }
        }
        let free = &mut free[..nfree];
        free.sort_unstable_by_key(|t| t.0);

        // Forced move: a face whose remaining copies (an even number) are all free on level 0.
        let mut i = 0;
        while i < free.len() {
            let g = free[i].0;
            let run = free_count[g as usize] as usize;
            let group = &free[i..i + run];
            if run >= 2
                && run % 2 == 0
                && group.iter().all(|t| t.2 == 0)
                && self.remaining(g, h) == run
            {
                let ps: Vec<usize> = group.iter().map(|t| t.1 as usize).collect();
                let mut k = key;
                for c in ps.chunks(2) {
                    self.take(h, &mut k, c[0], c[1]);
                }
                self.dfs(h, k, depth + run / 2);
                self.put_back(h, run / 2);
                return;
            }
            i += run;
        }

        // Every pair of free copies of a face, best-first: uncover high stacks, finish faces.
        let mut moves: Vec<(u8, u8, u8)> = Vec::new();
        let mut i = 0;
        while i < free.len() {
            let g = free[i].0;
            let run = free_count[g as usize] as usize;
            let finishes = self.remaining(g, h) == 2;
            for x in i..i + run {
                for y in x + 1..i + run {
                    let score = 2 * (free[x].2 + free[y].2) + if finishes { 3 } else { 0 };
                    moves.push((score, free[x].1, free[y].1));
                }
            }
            i += run;
        }
        moves.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        for (_, a, b) in moves {
            let mut k = key;
            self.take(h, &mut k, a as usize, b as usize);
            self.dfs(h, k, depth + 1);
            self.put_back(h, 1);
            if self.done {
                return;
            }
        }
    }

    /// Copies of face group `g` still on the board.
    fn remaining(&self, g: u8, h: &Heights) -> usize {
        self.copies[g as usize].iter().filter(|c| c.level < h[c.pos as usize]).count()
    }
}

/// The slot of a copy (for debugging and tests).
#[allow(dead_code)]
fn slot_of(pos: usize, level: usize) -> Slot {
    Slot::at(pos, level).expect("on the board")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn solutions_replay_through_the_rules() {
        for seed in 0..30 {
            let board = Board::deal(seed);
            let sol = solve(&board);
            let mut g = Game::new(board);
            for &p in &sol.moves {
                g.play(p).unwrap();
            }
            assert_eq!(g.tiles_left(), sol.tiles_left);
            assert!(g.is_over(), "seed {seed}: a best line ends with no pair left");
            assert_eq!(sol.winnable, g.tiles_left() == 1);
        }
    }

    #[test]
    fn stacked_last_pair_is_unwinnable() {
        // Two tiles of one face in the same stack can never be paired.
        let mut faces = [0u8; SLOTS];
        faces[Slot::new(0, 1, 1).unwrap().index()] = 7;
        faces[Slot::new(1, 0, 0).unwrap().index()] = 7;
        let b = Board::from_faces(&faces).unwrap();
        let sol = solve(&b);
        assert!(!sol.winnable);
        assert_eq!(sol.tiles_left, 2);
        assert!(sol.moves.is_empty());
    }
}
