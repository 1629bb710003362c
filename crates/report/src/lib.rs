//! Statistics and charts for playfield's front ends: what a benchmark reports (mean with its 95 %
//! confidence interval, standard deviation, median, percentiles, the Wilson interval of a
//! fraction), SVG charts of it drawn with `plotters`, and the [`batch`] runner that plays a
//! benchmark's runs on worker threads and hands their results back in order.
//!
//! ```
//! use playfield_report::stats::Summary;
//! let s = Summary::of(&[10.0, 20.0, 30.0]).expect("three values");
//! assert_eq!(s.mean, 20.0);
//! assert_eq!(s.median, 20.0);
//! assert!(s.ci95.is_some());
//! ```

pub mod batch;
pub mod chart;
pub mod stats;
