//! Players compared on the same saved positions: each plays a segment from every position, and
//! the difference to the first player is taken position by position (paired), so that the
//! pieces' luck, the same for both, falls out of the comparison.

use rayon::prelude::*;
use serde::Serialize;

use super::bench::BenchOptions;
use super::player::Player;
use super::segments::{SegmentPieces, SegmentScore, Start, play_segment};

/// A mean with its 95 % interval (normal approximation, 1.96 standard errors).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeanInterval {
    /// The mean.
    pub mean: f64,
    /// Half the interval's width.
    pub half_width: f64,
    /// The sample's size.
    pub n: usize,
}

impl MeanInterval {
    /// The mean of `values` with its 95 % interval; the half width is 0 below two values.
    #[must_use]
    pub fn of(values: &[f64]) -> MeanInterval {
        let n = values.len();
        if n == 0 {
            return MeanInterval {
                mean: 0.0,
                half_width: 0.0,
                n,
            };
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let half_width = if n < 2 {
            0.0
        } else {
            let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64;
            1.96 * (var / n as f64).sqrt()
        };
        MeanInterval {
            mean,
            half_width,
            n,
        }
    }

    /// Whether the interval excludes 0.
    #[must_use]
    pub fn excludes_zero(&self) -> bool {
        self.mean.abs() > self.half_width
    }
}

/// Every player's segment from every start, the pieces from `pieces`, in parallel:
/// `scores[p][s]`.
#[must_use]
pub fn play_all(
    starts: &[Start],
    options: &BenchOptions,
    segment_lines: u32,
    players: &[Player],
    pieces: SegmentPieces,
) -> Vec<Vec<SegmentScore>> {
    let pairs: Vec<(usize, usize)> = (0..players.len())
        .flat_map(|p| (0..starts.len()).map(move |s| (p, s)))
        .collect();
    let flat: Vec<SegmentScore> = pairs
        .par_iter()
        .map(|&(p, s)| play_segment(&starts[s], options, segment_lines, &players[p], pieces))
        .collect();
    flat.chunks(starts.len().max(1))
        .map(<[SegmentScore]>::to_vec)
        .collect()
}

/// One player's segments summed up, and paired against a reference player's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// Points per segment.
    pub points: MeanInterval,
    /// Lines per segment.
    pub lines: MeanInterval,
    /// Share of the segments that ended before their line cap.
    pub topped_out: f64,
    /// Points per segment less the reference's on the same position.
    pub points_difference: MeanInterval,
    /// Lines per segment less the reference's on the same position.
    pub lines_difference: MeanInterval,
}

/// `scores` summed up and paired against `reference`'s (the same starts, in the same order).
#[must_use]
pub fn compare(scores: &[SegmentScore], reference: &[SegmentScore]) -> Comparison {
    let points: Vec<f64> = scores.iter().map(|s| s.points as f64).collect();
    let lines: Vec<f64> = scores.iter().map(|s| f64::from(s.lines)).collect();
    let pairs = scores.iter().zip(reference);
    let points_difference: Vec<f64> = pairs
        .clone()
        .map(|(a, b)| a.points as f64 - b.points as f64)
        .collect();
    let lines_difference: Vec<f64> = pairs
        .map(|(a, b)| f64::from(a.lines) - f64::from(b.lines))
        .collect();
    Comparison {
        points: MeanInterval::of(&points),
        lines: MeanInterval::of(&lines),
        topped_out: scores.iter().filter(|s| s.topped_out).count() as f64
            / scores.len().max(1) as f64,
        points_difference: MeanInterval::of(&points_difference),
        lines_difference: MeanInterval::of(&lines_difference),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(points: u64, lines: u32) -> SegmentScore {
        SegmentScore {
            points,
            lines,
            topped_out: lines < 10,
        }
    }

    #[test]
    fn the_interval_is_the_mean_and_196_standard_errors() {
        let m = MeanInterval::of(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(m.mean, 2.5);
        // Sample variance 5/3, standard error sqrt(5/12).
        assert!((m.half_width - 1.96 * (5.0f64 / 12.0).sqrt()).abs() < 1e-12);
        assert!(m.excludes_zero());
        assert_eq!(MeanInterval::of(&[7.0]).half_width, 0.0);
        assert!(!MeanInterval::of(&[-1.0, 1.0]).excludes_zero());
    }

    #[test]
    fn a_comparison_pairs_the_segments_position_by_position() {
        let reference = [score(100, 10), score(1000, 5)];
        let other = [score(150, 12), score(1040, 10)];
        let c = compare(&other, &reference);
        assert_eq!(c.points.mean, 595.0);
        assert_eq!(c.points_difference.mean, 45.0);
        assert_eq!(c.lines_difference.mean, 3.5);
        assert_eq!(c.topped_out, 0.0);
        // Paired, the spread of the positions' own values is gone: differences 50 and 40.
        assert!(c.points_difference.half_width < c.points.half_width);
        assert_eq!(compare(&reference, &reference).topped_out, 0.5);
    }
}
