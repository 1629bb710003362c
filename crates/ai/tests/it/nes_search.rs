//! The move search against the engine: every placement's inputs lock exactly there (sound), and
//! random input allowed by the input model never locks anywhere the search did not find
//! (complete). The search's frame model is also compared with the engine state by state.

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use playfield_ai::nes::search::{FrameResult, Gravity, drop_speed, step_piece};
use playfield_ai::nes::{GameConfig, InputModel, PieceState, Searcher, Sweeper, game};
use playfield_nes::tables::TILE_EMPTY;
use playfield_nes::{Buttons, Modifiers, Nes, Orientation, PlayState, rules};
use proptest::prelude::*;

/// The start of a game at a menu level, reached through the menus (cached: the menus take a
/// few thousand frames).
fn game_start(level: u8, seed: u64) -> Nes {
    static CACHE: OnceLock<Mutex<HashMap<(u8, u64), Nes>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut map = cache.lock().expect("cache lock");
    map.entry((level, seed))
        .or_insert_with(|| {
            game::start_game(&GameConfig::a_type(level, seed))
                .expect("menus reach play")
                .0
        })
        .clone()
}

/// A random but plausible engine state for the active piece: a board with random columns and
/// holes, any level (29+ included), a random piece, carried DAS and held buttons, and optionally
/// the 96-frame opening delay of the first piece.
#[derive(Clone, Debug)]
struct Setup {
    menu_level: u8,
    seed: u64,
    level: u8,
    heights: Vec<u8>,
    holes: Vec<u8>,
    orientation: u8,
    autorepeat_x: u8,
    held: u8,
    opening_delay: bool,
    fall_timer: u8,
}

fn setup() -> impl Strategy<Value = Setup> {
    (
        prop_oneof![Just(0u8), Just(9), Just(18), Just(19)],
        0u64..4,
        prop_oneof![6u8..=19, 18u8..=20, 27u8..=40],
        prop::collection::vec(0u8..=15, 10),
        prop::collection::vec(0u8..=255, 20),
        0u8..19,
        0u8..=16,
        prop::sample::select(vec![0u8, 0x01, 0x02, 0x04, 0x05, 0x06, 0x80, 0x40, 0x81]),
        prop::bool::weighted(0.15),
        0u8..4,
    )
        .prop_map(
            |(
                menu_level,
                seed,
                level,
                heights,
                holes,
                orientation,
                autorepeat_x,
                held,
                opening_delay,
                fall_timer,
            )| Setup {
                menu_level,
                seed,
                level,
                heights,
                holes,
                orientation,
                autorepeat_x,
                held,
                opening_delay,
                fall_timer,
            },
        )
}

fn build(s: &Setup) -> Nes {
    let mut nes = game_start(s.menu_level, s.seed);
    let mut page = [TILE_EMPTY; 256];
    for (x, &h) in s.heights.iter().enumerate() {
        for y in (20 - usize::from(h))..20 {
            // A sprinkling of holes, decided by the hole bytes.
            if (s.holes[y] >> (x % 8)) & 1 == 0 || !s.holes[y].is_multiple_of(3) {
                page[y * 10 + x] = 0x7B;
            }
        }
    }
    nes.raw_mut().playfield = page;
    let p = &mut nes.raw_mut().player1;
    p.level_number = s.level;
    p.current_piece = s.orientation;
    p.tetrimino_x = 5;
    p.tetrimino_y = 0;
    p.autorepeat_x = s.autorepeat_x;
    p.fall_timer = s.fall_timer.min(drop_speed(s.level).saturating_sub(1));
    if !s.opening_delay {
        p.autorepeat_y = 0;
    }
    nes.raw_mut().held_buttons_player1 = s.held;
    let ram = nes.raw_mut();
    ram.player = ram.player1;
    if s.seed % 2 == 1 {
        // The double-speed benchmark option, on at this level.
        nes.set_modifiers(Modifiers {
            double_speed_level: Some(s.level),
            ..Modifiers::default()
        });
    }
    nes
}

fn gravity(nes: &Nes) -> Gravity {
    Gravity::at(nes.level(), nes.modifiers())
}

fn models() -> impl Strategy<Value = InputModel> {
    (
        prop::sample::select(vec!["X", "X.", "X...", "X...."]),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.7),
    )
        .prop_map(|(t, das, soft_drop)| InputModel {
            soft_drop,
            ..InputModel::new(t, das, 0).expect("valid timeline")
        })
}

/// A random frame of buttons the input model allows after `prev` on frame `frame` (1-based),
/// including holds the search prunes (A held for several frames).
fn random_buttons(model: &InputModel, frame: u32, prev: u8, r: u32) -> u8 {
    const CHOICES: [u8; 12] = [
        0, 0x01, 0x02, 0x04, 0x01, 0x02, 0x80, 0x40, 0x81, 0x42, 0x84, 0x41,
    ];
    let mut b = CHOICES[(r % 12) as usize];
    if !model.soft_drop || b & 0x03 != 0 {
        // No soft drop, or a diagonal (the model's d-pad holds one direction at a time).
        b &= !0x04;
    }
    if r.is_multiple_of(7) {
        b = prev; // keep holding
    }
    if !model.may_press(frame) {
        b &= prev;
    }
    if !model.das && b & prev & 0x03 != 0 {
        b &= !0x03;
    }
    b
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every placement's inputs, played through the engine, lock exactly there on the last frame.
    #[test]
    fn placements_lock_where_found(s in setup(), model in models(), pick in any::<u64>()) {
        let nes = build(&s);
        let mut searcher = Searcher::new();
        let start = PieceState::from_nes(&nes, 0).expect("a piece");
        let placements = searcher.search(nes.playfield_page(), start, gravity(&nes), &model).to_vec();
        // All of them on most cases would be slow at level 0; check up to 12 spread ones.
        let step = (placements.len() / 12).max(1);
        for (i, p) in placements.iter().enumerate().skip((pick as usize) % step).step_by(step) {
            let inputs = searcher.inputs(p);
            prop_assert_eq!(inputs.len() as u32, p.frames);
            let mut e = nes.clone();
            for (f, &b) in inputs.iter().enumerate() {
                prop_assert_eq!(e.play_state(), PlayState::Active, "placement {} frame {}", i, f);
                e.step(b);
            }
            prop_assert_eq!(e.play_state(), PlayState::Lock);
            prop_assert_eq!(
                e.last_piece().map(|piece| (piece.x, piece.y, piece.orientation.id())),
                Some((p.x, p.y, p.orientation))
            );
            prop_assert_eq!(e.das_counter(), p.autorepeat_x);
        }
    }

    /// Random input the model allows: the search's frame model equals the engine every frame,
    /// and the lock is one the search found.
    #[test]
    fn random_input_locks_only_where_found(
        s in setup(),
        model in models(),
        rolls in prop::collection::vec(any::<u32>(), 1200),
    ) {
        let nes = build(&s);
        let mut searcher = Searcher::new();
        let start = PieceState::from_nes(&nes, 0).expect("a piece");
        let found: HashSet<(u8, u8, u8)> = searcher
            .search(nes.playfield_page(), start, gravity(&nes), &model)
            .iter()
            .map(|p| (p.x, p.y, p.orientation))
            .collect();
        let mut e = nes.clone();
        let mut m = start;
        let speed = gravity(&nes);
        let mut prev = e.held_buttons().bits();
        for (f, &r) in rolls.iter().enumerate() {
            let frame = f as u32 + 1;
            let b = random_buttons(&model, frame, prev, r);
            prev = b;
            e.step(Buttons::from_bits_retain(b));
            let result = step_piece(nes.playfield_page(), &mut m, b, speed);
            prop_assert_eq!(m, PieceState::from_nes(&e, frame).expect("a piece"), "frame {}", frame);
            if result == FrameResult::Locked {
                prop_assert_eq!(e.play_state(), PlayState::Lock);
                let lock = (m.piece.x, m.piece.y, m.piece.orientation.id());
                let valid = playfield_ai::nes::search::is_position_valid(nes.playfield_page(), m.piece.x, m.piece.y, m.piece.orientation.id());
                // A lock overlapping the stack is a top-out, which the search leaves out.
                prop_assert!(!valid || found.contains(&lock), "lock {:?} not found", lock);
                return Ok(());
            }
            prop_assert_eq!(e.play_state(), PlayState::Active);
        }
    }
}

/// A tuck: a piece slid under an overhang is found, with inputs that get it there.
#[test]
fn finds_a_tuck_under_an_overhang() {
    let mut nes = game_start(0, 0);
    let mut page = [TILE_EMPTY; 256];
    // Rows 18-19 filled except columns 0-1, and an overhang on row 15 over columns 0-3: the O
    // (orientation $0A, minos at x-1..x, y..y+1) reaches columns 0-1 of rows 18-19 only by
    // sliding left along rows 16-17 under the overhang, then falling.
    for x in 2..10 {
        page[190 + x] = 0x7B;
        page[180 + x] = 0x7B;
    }
    for x in 0..4 {
        page[150 + x] = 0x7B;
    }
    nes.raw_mut().playfield = page;
    nes.raw_mut().player1.current_piece = 0x0A;
    nes.raw_mut().player1.level_number = 5;
    nes.raw_mut().player1.autorepeat_y = 0;
    let ram = nes.raw_mut();
    ram.player = ram.player1;
    let model = InputModel::new("X", true, 0).expect("valid");
    let mut searcher = Searcher::new();
    let start = PieceState::from_nes(&nes, 0).expect("a piece");
    let placements = searcher
        .search(nes.playfield_page(), start, 5, &model)
        .to_vec();
    // The O's centre cell is its top-right mino's left neighbour: minos at x-1..x, y..y+1.
    let tuck = placements
        .iter()
        .find(|p| p.x == 1 && p.y == 18)
        .expect("the tuck under the overhang is found");
    let mut e = nes.clone();
    for b in searcher.inputs(tuck) {
        e.step(b);
    }
    assert_eq!(e.piece_position(), (1, 18));
}

/// A page of random columns with holes, and random bytes in the unseen part of the page (rows
/// −2..−1 are bytes 236-255 there, which `isPositionValid` reads).
fn random_page(heights: &[u8], holes: &[u8], tail: &[u8]) -> [u8; 256] {
    let mut page = [TILE_EMPTY; 256];
    for (x, &h) in heights.iter().enumerate() {
        for y in (20 - usize::from(h))..20 {
            if (holes[y] >> (x % 8)) & 1 == 0 || !holes[y].is_multiple_of(3) {
                page[y * 10 + x] = 0x7B;
            }
        }
    }
    for (cell, &b) in page[200..].iter_mut().zip(tail) {
        // Mostly empty tiles, sometimes a block or another byte.
        *cell = match b % 4 {
            0 => 0x7B,
            1 => b,
            _ => TILE_EMPTY,
        };
    }
    page
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The sweep's collision masks equal `isPositionValid` for every column and row.
    #[test]
    fn sweep_fit_masks_equal_the_rules(
        heights in prop::collection::vec(0u8..=20, 10),
        holes in prop::collection::vec(0u8..=255, 20),
        tail in prop::collection::vec(0u8..=255, 56),
        orientation in 0u8..19,
    ) {
        let page = random_page(&heights, &holes, &tail);
        prop_assert!(playfield_ai::nes::sweep::fit_masks_agree(&page, orientation));
    }

    /// One frame of the sweep on a set of columns equals `step_piece` column by column.
    #[test]
    fn sweep_frame_equals_step_piece(
        heights in prop::collection::vec(0u8..=16, 10),
        holes in prop::collection::vec(0u8..=255, 20),
        tail in prop::collection::vec(0u8..=255, 56),
        orientation in 0u8..19,
        y in prop_oneof![0u8..20, 0u8..4],
        autorepeat_x in 0u8..=16,
        fall_timer in 0u8..=255,
        autorepeat_y in prop_oneof![0u8..=2, 0xF0u8..=0xFF, Just(0xA0u8)],
        held in prop::sample::select(vec![0u8, 0x01, 0x02, 0x04, 0x40, 0x80, 0x41, 0x82, 0x84, 0xC0]),
        buttons in prop::sample::select(vec![0u8, 0x01, 0x02, 0x04, 0x40, 0x80, 0x41, 0x42, 0x81, 0x82, 0x84, 0x44]),
        columns in 0u16..0x400,
        level in prop_oneof![0u8..=19, 27u8..=40],
        double in any::<bool>(),
    ) {
        let page = random_page(&heights, &holes, &tail);
        let piece = rules::PieceState {
            x: 0,
            y,
            orientation: Orientation::from_id(orientation).expect("an orientation"),
            autorepeat_x,
            fall_timer,
            autorepeat_y,
        };
        let state = PieceState::from_rule(piece, held, 0);
        let gravity = Gravity { drop_speed: drop_speed(level), double };
        prop_assert!(playfield_ai::nes::sweep::frame_parts_agree(&page, state, columns, buttons, gravity));
    }

    /// The sweep finds exactly the searcher's placements, each with the same earliest lock frame,
    /// and its buttons lock exactly there in the engine.
    #[test]
    fn sweep_equals_search(s in setup(), model in models(), pick in any::<u64>()) {
        let nes = build(&s);
        sweep_equals_search_from(&nes, PieceState::from_nes(&nes, 0).expect("a piece"), &model, pick)?;
    }

    /// The same for the taps-only model without soft drop at 30 Hz and slower, which the sweep
    /// runs on orientations alone, from any frame of the timeline (the placement environment
    /// plans the first piece in the opening delay, at a frame counted from the spawn).
    #[test]
    fn taps_sweep_equals_search(
        s in setup(),
        timeline in prop::sample::select(vec!["X.", "X..", "X...", "X...."]),
        frame in 0u32..6,
        release in prop::bool::weighted(0.75),
        pick in any::<u64>(),
    ) {
        // Mostly nothing held, as in the environment (the case the sweep runs on orientations
        // alone); otherwise the general sweep.
        let s = Setup { held: if release { 0 } else { s.held }, ..s };
        let nes = build(&s);
        let model = InputModel { soft_drop: false, ..InputModel::new(timeline, false, 0).expect("valid") };
        sweep_equals_search_from(&nes, PieceState::from_nes(&nes, frame).expect("a piece"), &model, pick)?;
    }
}

/// The sweep from `start` on `nes` against the searcher: the same placements with the same
/// earliest lock frames, and a sample of the sweep's buttons (picked by `pick`) allowed by the
/// model and locking exactly there in the engine.
fn sweep_equals_search_from(
    nes: &Nes,
    start: PieceState,
    model: &InputModel,
    pick: u64,
) -> Result<(), TestCaseError> {
    let mut searcher = Searcher::new();
    let searched: HashMap<(u8, u8, u8), u32> = searcher
        .search(nes.playfield_page(), start, gravity(nes), model)
        .iter()
        .map(|p| ((p.x, p.y, p.orientation), p.frames))
        .collect();
    let mut sweeper = Sweeper::new();
    let swept = sweeper
        .search(nes.playfield_page(), start, gravity(nes), model)
        .to_vec();
    let swept_map: HashMap<(u8, u8, u8), u32> = swept
        .iter()
        .map(|p| ((p.x, p.y, p.orientation), p.frames))
        .collect();
    prop_assert_eq!(swept_map.len(), swept.len(), "a placement listed twice");
    prop_assert_eq!(&swept_map, &searched);
    let step = (swept.len() / 12).max(1);
    for (i, p) in swept
        .iter()
        .enumerate()
        .skip((pick as usize) % step)
        .step_by(step)
    {
        let inputs = sweeper.inputs(p);
        prop_assert_eq!(inputs.len() as u32, p.frames);
        // The sequence is one the input model allows.
        let mut prev = nes.held_buttons().bits();
        for (f, b) in inputs.iter().enumerate() {
            let newly = b.bits() & !prev;
            let frame = start.frame + f as u32 + 1;
            prop_assert!(
                newly == 0 || model.may_press(frame),
                "press on frame {}",
                frame
            );
            prop_assert!(
                model.soft_drop || b.bits() & 0x04 == 0,
                "Down without soft drop"
            );
            prop_assert!(
                model.das || b.bits() & prev & 0x03 == 0,
                "a direction held without DAS"
            );
            prev = b.bits();
        }
        let mut e = nes.clone();
        for (f, &b) in inputs.iter().enumerate() {
            prop_assert_eq!(
                e.play_state(),
                PlayState::Active,
                "placement {} frame {}",
                i,
                f
            );
            e.step(b);
        }
        prop_assert_eq!(e.play_state(), PlayState::Lock);
        prop_assert_eq!(
            e.last_piece()
                .map(|piece| (piece.x, piece.y, piece.orientation.id())),
            Some((p.x, p.y, p.orientation))
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// The placement environment's case, where the sweep leaves out the most: a piece at spawn
    /// (nothing held, timers cleared, any carried `autorepeatX`), levels 18-19, 30 Hz or 60 Hz,
    /// DAS on or off, soft drop on or off, boards with overhangs. The sweep finds exactly the
    /// searcher's placements, each with the searcher's earliest lock frame.
    #[test]
    fn sweep_equals_search_at_spawn(
        heights in prop::collection::vec(0u8..=14, 10),
        holes in prop::collection::vec(0u8..=255, 20),
        orientation in 0u8..19,
        autorepeat_x in 0u8..=16,
        level in 18u8..=19,
        timeline in prop::sample::select(vec!["X", "X."]),
        das in any::<bool>(),
        soft_drop in any::<bool>(),
    ) {
        let page = random_page(&heights, &holes, &[]);
        let start = PieceState::spawn(Orientation::from_id(orientation).expect("an orientation"), autorepeat_x);
        let model = InputModel { soft_drop, ..InputModel::new(timeline, das, 0).expect("valid") };
        let mut searcher = Searcher::new();
        let searched: HashMap<(u8, u8, u8), u32> = searcher
            .search(&page, start, level, &model)
            .iter()
            .map(|p| ((p.x, p.y, p.orientation), p.frames))
            .collect();
        let mut sweeper = Sweeper::new();
        let swept = sweeper.search(&page, start, level, &model).to_vec();
        let swept_map: HashMap<(u8, u8, u8), u32> =
            swept.iter().map(|p| ((p.x, p.y, p.orientation), p.frames)).collect();
        prop_assert_eq!(swept_map.len(), swept.len(), "a placement listed twice");
        prop_assert_eq!(&swept_map, &searched);
        // Each placement's buttons, allowed by the model, lock there in the search's frame model
        // (which the tests above hold equal to the engine).
        for p in &swept {
            let inputs = sweeper.inputs(p);
            prop_assert_eq!(inputs.len() as u32, p.frames);
            let mut s = start;
            let mut prev = 0u8;
            for (f, b) in inputs.iter().enumerate() {
                let newly = b.bits() & !prev;
                prop_assert!(newly == 0 || model.may_press(f as u32 + 1), "press on frame {}", f + 1);
                prop_assert!(soft_drop || b.bits() & 0x04 == 0, "Down without soft drop");
                prop_assert!(das || b.bits() & prev & 0x03 == 0, "a direction held without DAS");
                prev = b.bits();
                let result = step_piece(&page, &mut s, b.bits(), Gravity::from(level));
                let last = f + 1 == inputs.len();
                prop_assert_eq!(result == FrameResult::Locked, last, "frame {}", f + 1);
            }
            prop_assert_eq!((s.piece.x, s.piece.y, s.piece.orientation.id()), (p.x, p.y, p.orientation));
        }
    }
}

/// Every player's ranking of the placements: its first entry is the placement the player
/// decides on, and each entry's terms add up to its value.
mod ranking {
    use playfield_ai::nes::players::{self, PLAYERS};
    use playfield_ai::nes::{InputModel, PieceState, Situation, Workspace};
    use playfield_nes::tables::TILE_EMPTY;
    use playfield_nes::{Board, Piece};
    use proptest::prelude::*;

    const TILE_BLOCK: u8 = 0x7B;
    /// A board of column heights with one hole per column at `holes[x]` rows below its top (0: none).
    fn board(heights: &[u8], holes: &[u8]) -> [u8; 256] {
        let mut page = [TILE_EMPTY; 256];
        for (x, (&h, &hole)) in heights.iter().zip(holes).enumerate() {
            for y in (20 - usize::from(h))..20 {
                page[y * 10 + x] = TILE_BLOCK;
            }
            if hole > 0 && hole < h {
                page[(20 - usize::from(h) + usize::from(hole)) * 10 + x] = TILE_EMPTY;
            }
        }
        page
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn the_first_ranked_placement_is_the_decision_and_terms_sum_to_values(
            heights in prop::collection::vec(0u8..=12, 10),
            holes in prop::collection::vec(0u8..=4, 10),
            piece in 0usize..7,
            next in prop::option::of(0usize..7),
            level in prop_oneof![Just(18u8), Just(19), Just(29)],
            reaction in prop_oneof![Just(0u32), Just(18)],
        ) {
            let page = Board::from_page(&board(&heights, &holes));
            let input = InputModel::new("X.", true, reaction).unwrap();
            let start = PieceState::spawn(Piece::ALL[piece].spawn_orientation(), 0);
            let situation = Situation::a_type(level, 120);
            let next = next.map(|n| Piece::ALL[n]);
            for info in PLAYERS {
                let player = players::by_name(info.name, input.clone()).unwrap();
                let decision = player.decide(&mut Workspace::new(), &page, start, situation, next);
                let ranked = player.rank(&mut Workspace::new(), &page, start, situation, next);
                prop_assert_eq!(decision.is_none(), ranked.is_empty());
                if let (Some(d), Some(first)) = (decision, ranked.first()) {
                    prop_assert_eq!(&first.decision, &d, "{}", info.name);
                }
                for r in &ranked {
                    let sum: f64 = r.terms.iter().map(|t| t.value).sum();
                    prop_assert!(
                        (sum - r.value).abs() <= 1e-6 * r.value.abs().max(1.0),
                        "{}: terms {:?} sum to {} against {}", info.name, r.terms, sum, r.value
                    );
                    prop_assert_eq!(r.value, -r.decision.cost);
                }
            }
        }
    }
}
