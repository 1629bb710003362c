//! Levels (§5.9), iteration delay (§5.10) and score (§5.11).

use std::time::Duration;

/// Lowest level.
pub const MIN_LEVEL: u8 = 1;
/// Highest level.
pub const MAX_LEVEL: u8 = 10;

/// The level earned by completed lines: 0-10 lines level 1, 11-20 level 2, ..., 91+ level 10.
#[must_use]
pub const fn earned_level(lines_completed: u64) -> u8 {
    if lines_completed == 0 {
        1
    } else if lines_completed <= 90 {
        1 + ((lines_completed - 1) / 10) as u8
    } else {
        10
    }
}

/// actualLevel = max(initialLevel, earnedLevel).
#[must_use]
pub const fn actual_level(initial_level: u8, lines_completed: u64) -> u8 {
    let earned = earned_level(lines_completed);
    if initial_level > earned {
        initial_level
    } else {
        earned
    }
}

/// iterationDelay = (11 - actualLevel) * 0.05 s. Levels outside 1..=10 are clamped.
#[must_use]
pub const fn iteration_delay(actual_level: u8) -> Duration {
    let level = if actual_level < MIN_LEVEL {
        MIN_LEVEL
    } else if actual_level > MAX_LEVEL {
        MAX_LEVEL
    } else {
        actual_level
    };
    Duration::from_millis(50 * (11 - level as u64))
}

/// pointAward = (21 + 3 * actualLevel) - freeFallIterations, never below zero (Fahey's program
/// only adds a positive point value; on a 20-row board the award is always positive anyway).
#[must_use]
pub const fn point_award(actual_level: u8, free_fall_iterations: u32) -> u32 {
    (21 + 3 * actual_level as u32).saturating_sub(free_fall_iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_table_of_section_5_9() {
        let table: [(std::ops::RangeInclusive<u64>, u8); 9] = [
            (0..=10, 1),
            (11..=20, 2),
            (21..=30, 3),
            (31..=40, 4),
            (41..=50, 5),
            (51..=60, 6),
            (61..=70, 7),
            (71..=80, 8),
            (81..=90, 9),
        ];
        for (range, level) in table {
            for lines in range {
                assert_eq!(earned_level(lines), level, "{lines} lines");
            }
        }
        for lines in [91, 92, 100, 1_000, u64::MAX] {
            assert_eq!(earned_level(lines), 10);
        }
    }

    #[test]
    fn actual_level_is_the_larger() {
        assert_eq!(actual_level(5, 0), 5);
        assert_eq!(actual_level(5, 45), 5);
        assert_eq!(actual_level(5, 51), 6);
        assert_eq!(actual_level(1, 91), 10);
        assert_eq!(actual_level(10, 0), 10);
    }

    #[test]
    fn delay_table_of_section_5_10() {
        let ms = [500, 450, 400, 350, 300, 250, 200, 150, 100, 50];
        for (i, m) in ms.iter().enumerate() {
            assert_eq!(iteration_delay(i as u8 + 1), Duration::from_millis(*m));
        }
        // "a piece spawned at level 1 lands in about 10 s, at level 10 in about 1 s" (20 rows).
        assert_eq!(iteration_delay(1) * 20, Duration::from_secs(10));
        assert_eq!(iteration_delay(10) * 20, Duration::from_secs(1));
    }

    #[test]
    fn score_formula_matches_the_example_table() {
        // §5.11 table: level, free-fall points, instant-drop points; unrotated non-I pieces fall
        // 18 rows on an empty board.
        let table = [
            (1, 6, 24),
            (2, 9, 27),
            (3, 12, 30),
            (4, 15, 33),
            (5, 18, 36),
            (6, 21, 39),
            (7, 24, 42),
            (8, 27, 45),
            (9, 30, 48),
            (10, 33, 51),
        ];
        for (level, free_fall, instant) in table {
            assert_eq!(point_award(level, 18), free_fall);
            assert_eq!(point_award(level, 0), instant);
        }
        assert_eq!(point_award(1, 100), 0);
    }
}
