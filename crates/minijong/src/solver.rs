//! Exact solver: depth-first search over positions (which tiles are left, a 128-bit set), with a
//! transposition set, an upper bound, and one safe forced move.
//!
//! The objective is the most pairs removable from a position. A deal is *winnable* when that
//! clears it to at most one tile (the odd tile of the 83). The search asks whether the upper bound
//! can be reached, then one pair fewer, and so on, so winnable deals end at their first clearing
//! line and unwinnable ones give the best reachable result, proven, and a line that reaches it.
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

use crate::board::{Board, Face, POSITIONS, SIDE, SLOTS, Slot, stack_slot};
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
    solve_limited(board, heights, u64::MAX).expect("an unlimited search always finishes")
}

/// Solves from a position, giving up (`None`) after about `max_nodes` positions.
///
/// The question asked is "can `target` pairs be removed?", from the upper bound down, so the search
/// prunes against a fixed target. Move order decides how fast a line is found (and so how soon a
/// proof closes), and no one order suits every deal: three fixed orders, then shuffled ones, take
/// turns as restarts with budgets; the last run has no limit. A run that finishes is exact by
/// itself, so the answer does not depend on which run gave it.
#[must_use]
pub fn solve_limited(board: &Board, heights: &Heights, max_nodes: u64) -> Option<Solution> {
    let (solution, decided) = best_within(board, heights, max_nodes);
    decided.then_some(solution)
}

/// Like [`solve_limited`], but always gives the best line found, and whether it is proven best
/// (`true`) or the budget ran out first (`false`: then `winnable` is `false` but unproven).
#[must_use]
pub fn best_within(board: &Board, heights: &Heights, max_nodes: u64) -> (Solution, bool) {
    const SCHEDULE: [(Order, u64); 6] = [
        (Order::Uncover, 5_000),
        (Order::Mobility, 5_000),
        (Order::Runs, 5_000),
        (Order::Uncover, 50_000),
        (Order::Mobility, 50_000),
        (Order::Runs, 50_000),
    ];
    let tiles = rules::tiles_left(heights);
    let mut nodes = 0u64;
    let mut best: Vec<Pair> = Vec::new();
    let finish = |moves: Vec<Pair>, nodes: u64, proven: bool| {
        let tiles_left = tiles - 2 * moves.len();
        let winnable = proven && tiles_left <= 1;
        (
            Solution {
                winnable,
                moves,
                tiles_left,
                nodes,
            },
            proven,
        )
    };
    // Ask "can `target` pairs be reached?" from the upper bound down: pruning against a fixed
    // target is much sharper than against the best line found so far.
    let mut target = Search::new(board, heights, Order::Uncover, 0, usize::MAX).goal;
    loop {
        if best.len() >= target {
            return finish(best, nodes, true);
        }
        // Fixed orders, then many short shuffled restarts (they find lines and finish proofs
        // that one long run misses), then one run without limit.
        let last = (Order::Uncover, u64::MAX);
        let shuffles = (1..=SHUFFLES).map(|k| (Order::Shuffled(k), 50_000));
        for (order, budget) in SCHEDULE
            .into_iter()
            .chain(shuffles)
            .chain(std::iter::once(last))
        {
            let budget = budget.min(max_nodes.saturating_sub(nodes));
            if budget == 0 {
                return finish(best, nodes, false);
            }
            let mut search = Search::new(board, heights, order, budget, target);
            let mut h = *heights;
            let key = search.start_key;
            search.dfs(&mut h, key, 0);
            nodes += search.nodes;
            if search.best_path.len() > best.len() {
                best = search.best_path;
            }
            if best.len() >= target {
                return finish(best, nodes, true);
            }
            if !search.cut {
                break; // searched to the end: `target` cannot be reached
            }
        }
        target -= 1;
    }
}

/// Shuffled restarts after the fixed orders.
const SHUFFLES: u64 = 64;

/// How the search orders the moves of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Higher tiles first (uncover stacks), then pairs that finish a face.
    Uncover,
    /// Most free tiles after the move first.
    Mobility,
    /// Ends of long same-level runs in a row first: their inner tiles wait for them.
    Runs,
    /// Uncover order with a seeded shuffle of ties and near-ties (restart diversity).
    Shuffled(u64),
}

/// Search budget per deal for [`solvable_deal`].
pub const SOLVABLE_DEAL_NODES: u64 = 5_000_000;

/// "Solvable deals only": the deal of `seed` if it is winnable, else of `seed + 1`, and so on
/// (deal, solve, redeal with the next seed), so winnable deals keep their random-deal
/// distribution. A deal not decided within [`SOLVABLE_DEAL_NODES`] positions is skipped too
/// (rare: about 1 in 100). Returns the seed used, its board and its solution.
#[must_use]
pub fn solvable_deal(seed: u64) -> (u64, Board, Solution) {
    let mut s = seed;
    loop {
        let board = Board::deal(s);
        if let Some(solution) = solve_limited(&board, &board.initial_heights(), SOLVABLE_DEAL_NODES)
            && solution.winnable
        {
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
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517C_C1B7_2722_0A95);
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
    /// For each slot: it and every slot under it in its stack.
    below: [u128; SLOTS],
    visited: KeySet,
    path: Vec<Pair>,
    best_path: Vec<Pair>,
    /// Pairs that would reach the root's upper bound: stop there.
    goal: usize,
    done: bool,
    /// The budget ran out before the search finished.
    cut: bool,
    budget: u64,
    order: Order,
    nodes: u64,
    start_key: u128,
}

impl Search {
    // Positions index several tables at once; a range reads clearer than zipped iterators.
    #[allow(clippy::needless_range_loop)]
    fn new(board: &Board, heights: &Heights, order: Order, budget: u64, target: usize) -> Self {
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
                copies[face_index[f] as usize].push(Copy_ {
                    pos: pos as u8,
                    level: level as u8,
                });
            }
        }
        let below = std::array::from_fn(|slot| {
            let sl = Slot::from_index(slot).expect("slot < SLOTS");
            (0..=sl.level as usize).fold(0u128, |m, l| m | 1 << stack_slot(sl.position(), l))
        });
        let mut s = Self {
            below,
            faces,
            copies,
            face_index,
            visited: KeySet::default(),
            path: Vec::new(),
            best_path: Vec::new(),
            goal: 0,
            done: false,
            cut: false,
            budget,
            order,
            nodes: 0,
            start_key,
        };
        s.goal = s.upper_bound(heights, usize::MAX).min(target);
        s
    }

    /// Most pairs still removable, counting faces independently (see the module docs), and
    /// counting what an odd face must leave: one copy stays, and so does every tile under it.
    /// The dearer bounds are skipped once the result is already below `enough` (the caller only
    /// needs to know that it cannot reach `enough`).
    fn upper_bound(&self, h: &Heights, enough: usize) -> usize {
        let mut total = 0;
        let mut tiles = 0;
        let mut odd_faces = 0;
        let mut stuck = 0;
        for group in &self.copies {
            let mut n = 0;
            let mut most = 0;
            let mut lowest = u8::MAX;
            for (i, c) in group.iter().enumerate() {
                if c.level >= h[c.pos as usize] {
                    continue;
                }
                n += 1;
                lowest = lowest.min(c.level);
                // Copies in the same stack as this one, counted once from the first of them.
                let earlier_same = group[..i]
                    .iter()
                    .any(|d| d.pos == c.pos && d.level < h[d.pos as usize]);
                if !earlier_same {
                    let k = group[i..]
                        .iter()
                        .filter(|d| d.pos == c.pos && d.level < h[d.pos as usize])
                        .count();
                    most = most.max(k);
                }
            }
            total += (n / 2).min(n - most);
            tiles += n;
            if n % 2 == 1 {
                odd_faces += 1;
                // The copy left over keeps itself and the `lowest` tiles under it at best.
                stuck = stuck.max(lowest as usize + 1);
            }
        }
        let stuck = stuck.max(odd_faces);
        let bound = total.min((tiles - stuck) / 2);
        if bound < enough {
            return bound;
        }
        let bound = bound.min(total - self.lost_couples(h));
        if bound < enough {
            return bound;
        }
        bound.min((tiles - stuck.max(self.forced_to_stay(h))) / 2)
    }

    /// A lower bound on the tiles that can never be removed. For each face, the copies left
    /// unpaired (`S`) must let the others pair across stacks, and nothing under an unpaired copy
    /// can go; tiles that stay under every such choice stay for sure (`F`), which in turn fixes
    /// copies of other faces, to a fixpoint. Then the tiles left are at least `F` plus, for any one
    /// face, the least its choice adds to `F`. An odd face with three or more copies must leave
    /// one of them, so we also try each choice for it and keep the least result.
    fn forced_to_stay(&self, h: &Heights) -> usize {
        let base = self.forced_fixpoint(h, 0, None).unwrap_or(0);
        let odd = self.copies.iter().enumerate().find_map(|(g, group)| {
            let present = present_copies(group, h)?;
            (present.len() % 2 == 1 && present.len() >= 3).then_some((g, present))
        });
        let Some((g, present)) = odd else {
            return base;
        };
        let mut least = usize::MAX;
        for subset in 0u32..1 << present.len() {
            let (closure, rest) = self.split(&present, subset);
            if closure & rest != 0 || !pairs_across_stacks(&present, subset) {
                continue;
            }
            let chosen = closure & present.iter().fold(0u128, |m, c| m | 1 << c.0);
            if let Some(n) = self.forced_fixpoint(h, closure, Some((g, chosen))) {
                least = least.min(n);
            }
        }
        if least == usize::MAX {
            base
        } else {
            base.max(least)
        }
    }

    /// Unpaired copies' closure (them and everything under them) and the other copies, as slots.
    fn split(&self, present: &[(u8, u8)], subset: u32) -> (u128, u128) {
        let mut closure = 0u128;
        let mut rest = 0u128;
        for (i, &(slot, _)) in present.iter().enumerate() {
            if subset >> i & 1 == 1 {
                closure |= self.below[slot as usize];
            } else {
                rest |= 1 << slot;
            }
        }
        (closure, rest)
    }

    /// The fixpoint of [`Self::forced_to_stay`] from `start`, with face group `fixed.0` leaving
    /// exactly the copies `fixed.1` unpaired. `None` when that choice is impossible.
    fn forced_fixpoint(
        &self,
        h: &Heights,
        start: u128,
        fixed: Option<(usize, u128)>,
    ) -> Option<usize> {
        let mut forced = start;
        let mut extra = 0usize;
        for _round in 0..8 {
            let mut next = forced;
            extra = 0;
            for (g, group) in self.copies.iter().enumerate() {
                let Some(present) = present_copies(group, h) else {
                    continue;
                };
                let k = present.len();
                let fixed_here = fixed.filter(|f| f.0 == g).map(|f| f.1);
                // Quick case: an even number, all in different stacks, none fixed: pair them all.
                let distinct = (0..k).all(|i| (i + 1..k).all(|j| present[i].1 != present[j].1));
                if fixed_here.is_none()
                    && k.is_multiple_of(2)
                    && distinct
                    && present.iter().all(|c| forced >> c.0 & 1 == 0)
                {
                    continue;
                }
                let all_slots = present.iter().fold(0u128, |m, c| m | 1 << c.0);
                let mut must_stay = u128::MAX;
                let mut least_added = usize::MAX;
                for subset in 0u32..1 << k {
                    let (closure, rest) = self.split(&present, subset);
                    if fixed_here.is_some_and(|f| closure & all_slots != f) {
                        continue;
                    }
                    // A copy that can never go cannot be paired.
                    if rest & forced != 0
                        || closure & rest != 0
                        || !pairs_across_stacks(&present, subset)
                    {
                        continue;
                    }
                    must_stay &= closure;
                    least_added = least_added.min((closure & !forced).count_ones() as usize);
                }
                if least_added == usize::MAX {
                    return None; // no way for this face: the fixed choice is impossible
                }
                next |= must_stay;
                extra = extra.max(least_added);
            }
            if next == forced {
                break;
            }
            forced = next;
        }
        Some(forced.count_ones() as usize + extra)
    }

    /// Pairs lost among *couples* (faces with exactly two copies left, in different stacks, so
    /// their pairing is fixed), from precedence: a couple whose tile lies under another couple's
    /// tile must wait for it; in rows 0 and 6 (always level 0, emptied only from the ends) a couple
    /// in one row must wait for every tile of that row outside its two copies, and goes before
    /// those between them. A couple under a lone copy of a face, or waiting for such a couple,
    /// never goes; each cycle of waits loses at least one more pair.
    #[allow(clippy::needless_range_loop)] // couple numbers index several bit tables
    fn lost_couples(&self, h: &Heights) -> usize {
        // Couple number of each face group, and which groups are down to one copy.
        let mut couple_of = [u8::MAX; 64];
        let mut lone = [false; 64];
        let mut n_couples = 0usize;
        for (g, group) in self.copies.iter().enumerate() {
            let mut n = 0;
            let mut first = u8::MAX;
            let mut same_stack = false;
            for c in group {
                if c.level < h[c.pos as usize] {
                    n += 1;
                    same_stack |= first == c.pos;
                    first = c.pos;
                }
            }
            if n == 2 && !same_stack && n_couples < 64 {
                couple_of[g] = n_couples as u8;
                n_couples += 1;
            }
            lone[g] = n == 1;
        }
        if n_couples == 0 {
            return 0;
        }
        // before[x]: couples that must wait for couple x. doomed: couples that never go.
        let mut before = [0u64; 64];
        let mut doomed = 0u64;
        for pos in 0..POSITIONS {
            let height = h[pos] as usize;
            for upper in 1..height {
                let gu = self.group_at(pos, upper);
                for lower in 0..upper {
                    let gl = self.group_at(pos, lower);
                    let cl = couple_of[gl];
                    if cl == u8::MAX {
                        continue;
                    }
                    if lone[gu] {
                        doomed |= 1 << cl;
                    } else if couple_of[gu] != u8::MAX && gu != gl {
                        before[couple_of[gu] as usize] |= 1 << cl;
                    }
                }
            }
        }
        for row in [0, SIDE - 1] {
            let cells: Vec<(usize, u8)> = (0..SIDE)
                .filter(|&c| h[row * SIDE + c] > 0)
                .map(|c| (c, couple_of[self.group_at(row * SIDE + c, 0)]))
                .collect();
            for (i, &(c1, x)) in cells.iter().enumerate() {
                if x == u8::MAX {
                    continue;
                }
                let Some(&(c2, _)) = cells[i + 1..].iter().find(|t| t.1 == x) else {
                    continue;
                };
                for &(c, y) in &cells {
                    if y == u8::MAX || y == x {
                        continue;
                    }
                    if c < c1 || c > c2 {
                        before[y as usize] |= 1 << x;
                    } else {
                        before[x as usize] |= 1 << y;
                    }
                }
            }
        }
        // Transitive closure (Warshall on bit rows).
        let mut reach = before;
        for k in 0..n_couples {
            for i in 0..n_couples {
                if reach[i] >> k & 1 == 1 {
                    reach[i] |= reach[k];
                }
            }
        }
        let mut lost = doomed;
        for x in 0..n_couples {
            if doomed >> x & 1 == 1 {
                lost |= reach[x];
            }
        }
        let mut count = lost.count_ones() as usize;
        // One more per cycle (strongly connected set) not already lost.
        let mut seen = lost;
        for x in 0..n_couples {
            if seen >> x & 1 == 0 && reach[x] >> x & 1 == 1 {
                let scc: u64 = (0..n_couples)
                    .filter(|&y| reach[x] >> y & 1 == 1 && reach[y] >> x & 1 == 1)
                    .fold(0, |m, y| m | 1 << y);
                seen |= scc;
                count += 1;
            }
        }
        count
    }

    /// Face group of the tile at `level` over `pos`.
    fn group_at(&self, pos: usize, level: usize) -> usize {
        self.face_index[self.faces[stack_slot(pos, level)] as usize] as usize
    }

    fn take(&mut self, h: &mut Heights, key: &mut u128, a: usize, b: usize) {
        let pair = Pair {
            a: rules::top_slot(h, a),
            b: rules::top_slot(h, b),
        };
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
        if self.nodes > self.budget {
            self.done = true;
            self.cut = true;
            return;
        }
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
        // Only lines that can reach the target matter (depth <= best here, so need >= 1).
        let need = self.best_path.len().max(self.goal.saturating_sub(1)) + 1 - depth;
        if self.upper_bound(h, need) < need {
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
                && run.is_multiple_of(2)
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
        let mut moves: Vec<(i32, u8, u8)> = Vec::new();
        let mut i = 0;
        while i < free.len() {
            let g = free[i].0;
            let run = free_count[g as usize] as usize;
            let finishes = self.remaining(g, h) == 2;
            for x in i..i + run {
                for y in x + 1..i + run {
                    let (a, b) = (free[x].1 as usize, free[y].1 as usize);
                    let levels = i32::from(free[x].2 + free[y].2);
                    let score = match self.order {
                        Order::Uncover => 2 * levels + if finishes { 3 } else { 0 },
                        Order::Mobility => {
                            // Free tiles after the move (a removal can block neighbours).
                            h[a] -= 1;
                            h[b] -= 1;
                            let mobility =
                                (0..POSITIONS).filter(|&p| rules::is_free(h, p)).count() as i32;
                            h[a] += 1;
                            h[b] += 1;
                            4 * mobility + 2 * levels + if finishes { 3 } else { 0 }
                        }
                        Order::Shuffled(seed) => {
                            let mut x = seed
                                ^ ((a as u64) << 8 | b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                            x = (x ^ (x >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                            2 * levels + if finishes { 3 } else { 0 } + (x >> 61) as i32
                        }
                        Order::Runs => {
                            3 * (run_length(h, a) + run_length(h, b))
                                + 2 * levels
                                + if finishes { 3 } else { 0 }
                        }
                    };
                    moves.push((score, a as u8, b as u8));
                }
            }
            i += run;
        }
        moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
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
        self.copies[g as usize]
            .iter()
            .filter(|c| c.level < h[c.pos as usize])
            .count()
    }
}

/// Up to six copies of a face as (slot, position), without allocating.
#[derive(Clone, Copy)]
struct Present {
    copies: [(u8, u8); 6],
    len: usize,
}

impl std::ops::Deref for Present {
    type Target = [(u8, u8)];
    fn deref(&self) -> &[(u8, u8)] {
        &self.copies[..self.len]
    }
}

/// Present copies of a face group; `None` when none or more than 6 (then no bound is drawn).
fn present_copies(group: &[Copy_], h: &Heights) -> Option<Present> {
    let mut p = Present {
        copies: [(0, 0); 6],
        len: 0,
    };
    for c in group.iter().filter(|c| c.level < h[c.pos as usize]) {
        if p.len == 6 {
            return None;
        }
        p.copies[p.len] = (stack_slot(c.pos as usize, c.level as usize) as u8, c.pos);
        p.len += 1;
    }
    (p.len > 0).then_some(p)
}

/// Length of the run of same-level visible tiles in `pos`'s row that `pos` belongs to.
fn run_length(h: &Heights, pos: usize) -> i32 {
    let (row, col) = (pos / SIDE, pos % SIDE);
    let level = h[pos];
    let same = |c: usize| h[row * SIDE + c] == level;
    let left = (0..col).rev().take_while(|&c| same(c)).count();
    let right = (col + 1..SIDE).take_while(|&c| same(c)).count();
    (left + right + 1) as i32
}

/// Whether the copies (slot, position) not in `subset` can all pair, no pair within one stack.
fn pairs_across_stacks(present: &[(u8, u8)], subset: u32) -> bool {
    let rest = || (0..present.len()).filter(move |i| subset >> i & 1 == 0);
    let n = rest().count();
    n % 2 == 0 && rest().all(|i| rest().filter(|&j| present[j].1 == present[i].1).count() * 2 <= n)
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
            assert!(
                g.is_over(),
                "seed {seed}: a best line ends with no pair left"
            );
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
