//! Descriptive statistics of a sample: mean, standard deviation, the normal-approximation 95 %
//! confidence interval of the mean, median, nearest-rank percentiles, and the Wilson score
//! interval of a fraction.

use serde::Serialize;

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A closed interval `[low, high]`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// Half the width: the `±` of a symmetric interval.
    #[must_use]
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether `x` lies inside.
    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// A sample's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Number of values.
    pub n: usize,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator); `None` for one value.
    pub sd: Option<f64>,
    /// 95 % confidence interval of the mean, `mean ± 1.96 · sd / √n`; `None` for one value.
    pub ci95: Option<Interval>,
    /// Median (the mean of the two middle values for an even count).
    pub median: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Nearest-rank 10th percentile.
    pub p10: f64,
    /// Nearest-rank 90th percentile.
    pub p90: f64,
    /// Nearest-rank 99th percentile.
    pub p99: f64,
}

impl Summary {
    /// The summary of `values` (in any order); `None` when there are none or one is not finite.
    #[must_use]
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() || values.iter().any(|v| !v.is_finite()) {
            return None;
        }
        let n = values.len();
        let count = n as f64;
        let mean = values.iter().sum::<f64>() / count;
        let sd = (n > 1).then(|| {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (count - 1.0)).sqrt()
        });
        let ci95 = sd.map(|sd| {
            let half = Z95 * sd / count.sqrt();
            Interval {
                low: mean - half,
                high: mean + half,
            }
        });
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        Some(Summary {
            n,
            mean,
            sd,
            ci95,
            median: median(&sorted),
            min: sorted[0],
            max: sorted[n - 1],
            p10: percentile(&sorted, 0.10),
            p90: percentile(&sorted, 0.90),
            p99: percentile(&sorted, 0.99),
        })
    }

    /// The summary of integer values (scores, lines, frames).
    #[must_use]
    pub fn of_counts(values: &[u64]) -> Option<Summary> {
        let v: Vec<f64> = values.iter().map(|&x| x as f64).collect();
        Summary::of(&v)
    }
}

/// Median of sorted values (0 when empty).
#[must_use]
pub fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Nearest-rank percentile `q` (0..=1) of sorted values (0 when empty).
#[must_use]
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Wilson score interval, 95 %, for `k` successes in `n` trials (`[0, 1]` when `n` is 0).
#[must_use]
pub fn wilson(k: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, Z95);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    Interval {
        low: ((centre - half) / denom).max(0.0),
        high: ((centre + half) / denom).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_sd_and_interval() {
        let s = Summary::of(&[10.0, 20.0, 30.0]).unwrap();
        assert_eq!(s.mean, 20.0);
        assert!((s.sd.unwrap() - 10.0).abs() < 1e-12);
        let ci = s.ci95.unwrap();
        assert!((ci.high - 20.0 - Z95 * 10.0 / 3f64.sqrt()).abs() < 1e-9);
        assert!((20.0 - ci.low - ci.half_width()).abs() < 1e-9);
        assert_eq!((s.min, s.max, s.median), (10.0, 30.0, 20.0));
        let one = Summary::of(&[5.0]).unwrap();
        assert_eq!((one.sd, one.ci95), (None, None));
        assert!(Summary::of(&[]).is_none());
        assert!(Summary::of(&[1.0, f64::NAN]).is_none());
    }

    #[test]
    fn median_and_percentiles() {
        assert_eq!(median(&[1.0, 2.0, 3.0, 4.0]), 2.5);
        assert_eq!(median(&[1.0, 2.0, 9.0]), 2.0);
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 50.0);
        assert_eq!(percentile(&v, 0.99), 99.0);
        assert_eq!(percentile(&[3.0], 0.99), 3.0);
    }

    #[test]
    fn wilson_interval_brackets_the_fraction() {
        let w = wilson(90, 100);
        assert!(w.contains(0.9));
        assert!(
            (w.low - 0.8256).abs() < 1e-3 && (w.high - 0.9448).abs() < 1e-3,
            "{w:?}"
        );
        assert_eq!(
            wilson(0, 0),
            Interval {
                low: 0.0,
                high: 1.0
            }
        );
    }
}
