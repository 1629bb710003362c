//! SVG charts drawn with `plotters`: a histogram of one number per game with the mean and its
//! 95 % interval, a mean score-by-lines curve with reference points, a game's score and level over
//! time (two axes), and a histogram on a log scale (times). Each returns the SVG text; writing it
//! is the caller's business.

use plotters::prelude::*;
use thiserror::Error;

use crate::stats::Interval;

/// Chart size in pixels.
const SIZE: (u32, u32) = (900, 500);

/// A chart could not be drawn.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChartError {
    /// There is nothing to draw.
    #[error("no data to chart")]
    NoData,
    /// A value is NaN or infinite.
    #[error("a charted value is not a finite number")]
    NotFinite,
    /// The drawing backend failed (it reports its reason as text).
    #[error("drawing the chart: {0}")]
    Draw(String),
}

fn draw_err<E: std::fmt::Display>(e: E) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// A caption's font size: smaller for long titles so they fit the chart's width.
fn caption_size(title: &str) -> u32 {
    match title.chars().count() {
        0..=80 => 18,
        81..=110 => 14,
        _ => 11,
    }
}

/// The part of an SVG a chart is drawn on.
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// A tick label a reader takes in at a glance: 1.5M, 250k, 12, 0.25.
#[must_use]
pub fn tick_label(v: f64) -> String {
    let a = v.abs();
    let trim = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s
        }
    };
    if a >= 1e6 {
        format!("{}M", trim(format!("{:.2}", v / 1e6)))
    } else if a >= 1e4 {
        format!("{}k", trim(format!("{:.1}", v / 1e3)))
    } else if a >= 10.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        trim(format!("{v:.2}"))
    }
}

/// A histogram of one number per game.
#[derive(Clone, Debug)]
pub struct Histogram<'a> {
    /// The chart's title.
    pub title: &'a str,
    /// What the values are ("score", "lines").
    pub unit: &'a str,
    /// The values, one per game.
    pub values: &'a [f64],
    /// The mean, drawn as a line.
    pub mean: f64,
    /// The 95 % interval of the mean, shaded.
    pub ci95: Option<Interval>,
}

/// Bins for the histogram: at most 30, fewer for small samples.
fn bin_count(n: usize) -> usize {
    ((n as f64).sqrt().ceil() as usize).clamp(5, 30)
}

/// Draws [`Histogram`].
///
/// # Errors
/// [`ChartError::NoData`] without values, [`ChartError::NotFinite`] for NaN/∞, else a backend
/// failure.
pub fn histogram(h: &Histogram<'_>) -> Result<String, ChartError> {
    check_histogram(h)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        draw_histogram(&root, h)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

fn check_histogram(h: &Histogram<'_>) -> Result<(), ChartError> {
    if h.values.is_empty() {
        return Err(ChartError::NoData);
    }
    if h.values.iter().any(|v| !v.is_finite()) || !h.mean.is_finite() {
        return Err(ChartError::NotFinite);
    }
    Ok(())
}

fn draw_histogram(root: &Area<'_>, h: &Histogram<'_>) -> Result<(), ChartError> {
    let max = h.values.iter().copied().fold(0.0f64, f64::max).max(1.0);
    let bins = bin_count(h.values.len());
    let width = max / bins as f64;
    let mut counts = vec![0u32; bins];
    for &v in h.values {
        counts[((v.max(0.0) / width) as usize).min(bins - 1)] += 1;
    }
    let top = f64::from(counts.iter().copied().max().unwrap_or(1).max(1)) * 1.1;
    {
        let mut chart = ChartBuilder::on(root)
            .caption(h.title, ("sans-serif", caption_size(h.title)))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..max, 0.0..top)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .x_desc(format!("{} per game ({} games)", h.unit, h.values.len()))
            .y_desc("games")
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(draw_err)?;
        if let Some(ci) = h.ci95 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(ci.low.max(0.0), 0.0), (ci.high.min(max), top)],
                    RGBColor(255, 204, 128).mix(0.6).filled(),
                )))
                .map_err(draw_err)?
                .label("95% interval of the mean")
                .legend(|(x, y)| {
                    Rectangle::new(
                        [(x, y - 5), (x + 15, y + 5)],
                        RGBColor(255, 204, 128).filled(),
                    )
                });
        }
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = i as f64 * width;
                Rectangle::new(
                    [(x0, 0.0), (x0 + width, f64::from(c))],
                    RGBColor(74, 120, 181).filled(),
                )
            }))
            .map_err(draw_err)?;
        chart
            .draw_series(LineSeries::new(
                [(h.mean, 0.0), (h.mean, top)],
                RED.stroke_width(2),
            ))
            .map_err(draw_err)?
            .label(format!("mean {}", tick_label(h.mean)))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], RED.stroke_width(2)));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(draw_err)?;
    }
    Ok(())
}

/// A mean score-by-lines curve over a batch of games, with reference points (another player's
/// published means) drawn beside it.
#[derive(Clone, Debug)]
pub struct ScoreCurve<'a> {
    /// The chart's title.
    pub title: &'a str,
    /// (lines, mean score of the games that got there, how many did), in line order.
    pub points: &'a [(u32, f64, u64)],
    /// What the reference points are ("BetaTetris hybrid v0.1, published").
    pub reference_label: &'a str,
    /// (lines, mean score) of the reference.
    pub reference: &'a [(u32, f64)],
}

fn check_curve(c: &ScoreCurve<'_>) -> Result<(), ChartError> {
    if c.points.is_empty() {
        return Err(ChartError::NoData);
    }
    if c.points.iter().any(|p| !p.1.is_finite()) || c.reference.iter().any(|p| !p.1.is_finite()) {
        return Err(ChartError::NotFinite);
    }
    Ok(())
}

fn draw_curve(root: &Area<'_>, c: &ScoreCurve<'_>) -> Result<(), ChartError> {
    let games = c.points.first().map_or(0, |p| p.2);
    let x_max = c
        .points
        .iter()
        .map(|p| p.0)
        .chain(c.reference.iter().map(|p| p.0))
        .max()
        .unwrap_or(1) as f64
        * 1.05;
    let y_max = c
        .points
        .iter()
        .map(|p| p.1)
        .chain(c.reference.iter().map(|p| p.1))
        .fold(1.0f64, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(root)
        .caption(c.title, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc("lines cleared")
        .y_desc("mean score of the games still playing")
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()
        .map_err(draw_err)?;
    let blue = RGBColor(74, 120, 181);
    chart
        .draw_series(LineSeries::new(
            c.points.iter().map(|p| (f64::from(p.0), p.1)),
            blue.stroke_width(2),
        ))
        .map_err(draw_err)?
        .label(format!("this run ({games} games; fewer as games end)"))
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 15, y)], blue.stroke_width(2)));
    // Where fewer than half the games are still playing, the mean speaks for few: a thin line
    // marks the last point at which at least half are.
    if let Some(half) = c.points.iter().rev().find(|p| p.2 * 2 >= games) {
        let x = f64::from(half.0);
        chart
            .draw_series(LineSeries::new(
                [(x, 0.0), (x, y_max)],
                BLACK.mix(0.3).stroke_width(1),
            ))
            .map_err(draw_err)?
            .label(format!("half the games still playing ({} lines)", half.0))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], BLACK.mix(0.3)));
    }
    chart
        .draw_series(
            c.reference
                .iter()
                .map(|&(l, s)| Circle::new((f64::from(l), s), 6, RED.filled())),
        )
        .map_err(draw_err)?
        .label(c.reference_label)
        .legend(|(x, y)| Circle::new((x + 7, y), 5, RED.filled()));
    chart
        .draw_series(c.reference.iter().map(|&(l, s)| {
            Text::new(
                tick_label(s),
                (f64::from(l), s),
                ("sans-serif", 13).into_font().color(&RED),
            )
        }))
        .map_err(draw_err)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(draw_err)?;
    Ok(())
}

/// Draws [`ScoreCurve`].
///
/// # Errors
/// [`ChartError::NoData`] without points, [`ChartError::NotFinite`] for NaN/∞, else a backend
/// failure.
pub fn score_curve(c: &ScoreCurve<'_>) -> Result<String, ChartError> {
    check_curve(c)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        draw_curve(&root, c)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// A batch of games in one SVG: the score histogram above, the score-by-lines curve below.
///
/// # Errors
/// As [`histogram`] and [`score_curve`].
pub fn histogram_and_curve(h: &Histogram<'_>, c: &ScoreCurve<'_>) -> Result<String, ChartError> {
    check_histogram(h)?;
    check_curve(c)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, SIZE.1 * 2)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let (upper, lower) = root.split_vertically(SIZE.1);
        draw_histogram(&upper, h)?;
        draw_curve(&lower, c)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// Mean points per game in line bands, beside a reference's (another player's published means),
/// with the share of each band's lines that came from tetrises.
#[derive(Clone, Debug)]
pub struct BandChart<'a> {
    /// The chart's title.
    pub title: &'a str,
    /// Per band: its name ("0-130 lines"), this run's mean points, the reference's, and this
    /// run's tetris rate (0-1).
    pub bands: &'a [(String, f64, f64, f64)],
    /// What the reference is ("BetaTetris hybrid v0.1, published").
    pub reference_label: &'a str,
}

fn check_bands(b: &BandChart<'_>) -> Result<(), ChartError> {
    if b.bands.is_empty() {
        return Err(ChartError::NoData);
    }
    if b.bands.iter().any(|(_, ours, theirs, rate)| {
        !ours.is_finite() || !theirs.is_finite() || !rate.is_finite()
    }) {
        return Err(ChartError::NotFinite);
    }
    Ok(())
}

fn draw_bands(root: &Area<'_>, b: &BandChart<'_>) -> Result<(), ChartError> {
    let n = b.bands.len() as f64;
    let y_max = b
        .bands
        .iter()
        .flat_map(|(_, ours, theirs, _)| [*ours, *theirs])
        .fold(1.0f64, f64::max)
        * 1.45;
    let mut chart = ChartBuilder::on(root)
        .caption(b.title, ("sans-serif", 18))
        .margin(15)
        .x_label_area_size(20)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..y_max)
        .map_err(draw_err)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .disable_x_mesh()
        .x_labels(0)
        .y_desc("mean points per game")
        .y_label_formatter(&|v| tick_label(*v))
        .label_style(("sans-serif", 14))
        .axis_desc_style(("sans-serif", 15))
        .draw()
        .map_err(draw_err)?;
    let blue = RGBColor(74, 120, 181);
    let red = RGBColor(214, 96, 77);
    let bar = |i: usize, offset: f64, value: f64, color: RGBColor| {
        let x = i as f64 + offset;
        Rectangle::new([(x - 0.18, 0.0), (x + 0.18, value)], color.filled())
    };
    chart
        .draw_series(
            b.bands
                .iter()
                .enumerate()
                .map(|(i, (_, ours, _, _))| bar(i, -0.2, *ours, blue)),
        )
        .map_err(draw_err)?
        .label("this run (the tetris rate of the band's lines above)")
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], blue.filled()));
    chart
        .draw_series(
            b.bands
                .iter()
                .enumerate()
                .map(|(i, (_, _, theirs, _))| bar(i, 0.2, *theirs, red)),
        )
        .map_err(draw_err)?
        .label(b.reference_label)
        .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 15, y + 5)], red.filled()));
    let text = |s: String, x: f64, y: f64| Text::new(s, (x, y), ("sans-serif", 13).into_font());
    chart
        .draw_series(
            b.bands
                .iter()
                .enumerate()
                .flat_map(|(i, (name, ours, theirs, rate))| {
                    let x = i as f64;
                    [
                        text(name.clone(), x - 0.3, y_max * 0.8),
                        text(
                            format!("{} ({:.0} % tetris)", tick_label(*ours), 100.0 * rate),
                            x - 0.45,
                            ours + y_max * 0.06,
                        ),
                        text(tick_label(*theirs), x + 0.08, theirs + y_max * 0.03),
                    ]
                }),
        )
        .map_err(draw_err)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(draw_err)?;
    Ok(())
}

/// A batch of games in one SVG: the score histogram, the score-by-lines curve, and the points
/// by line band beside the reference's.
///
/// # Errors
/// As [`histogram`] and [`score_curve`]; [`ChartError::NoData`] without bands.
pub fn histogram_curve_and_bands(
    h: &Histogram<'_>,
    c: &ScoreCurve<'_>,
    b: &BandChart<'_>,
) -> Result<String, ChartError> {
    check_histogram(h)?;
    check_curve(c)?;
    check_bands(b)?;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, SIZE.1 * 3)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let (upper, rest) = root.split_vertically(SIZE.1);
        let (middle, lower) = rest.split_vertically(SIZE.1);
        draw_histogram(&upper, h)?;
        draw_curve(&middle, c)?;
        draw_bands(&lower, b)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// One sample of a game over time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreSample {
    /// Frame (or piece) number.
    pub time: u64,
    /// Score then.
    pub score: u32,
    /// Level then.
    pub level: u8,
}

/// A game's score (left axis) and level (right axis) over time, as step lines; `samples` are in
/// time order, one at each change.
///
/// # Errors
/// [`ChartError::NoData`] without samples, else a backend failure.
pub fn score_and_level(
    title: &str,
    time_unit: &str,
    samples: &[ScoreSample],
) -> Result<String, ChartError> {
    let Some(last) = samples.last() else {
        return Err(ChartError::NoData);
    };
    let t_max = (last.time as f64).max(1.0);
    let s_max = f64::from(samples.iter().map(|s| s.score).max().unwrap_or(0)).max(1.0) * 1.05;
    let l_max = f64::from(samples.iter().map(|s| s.level).max().unwrap_or(0)).max(1.0) + 1.0;
    let steps = |y: &dyn Fn(&ScoreSample) -> f64| {
        let mut points = Vec::with_capacity(samples.len() * 2);
        for (i, s) in samples.iter().enumerate() {
            if i > 0 {
                points.push((s.time as f64, y(&samples[i - 1])));
            }
            points.push((s.time as f64, y(s)));
        }
        points
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .right_y_label_area_size(50)
            .build_cartesian_2d(0.0..t_max, 0.0..s_max)
            .map_err(draw_err)?
            .set_secondary_coord(0.0..t_max, 0.0..l_max);
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(time_unit)
            .y_desc("score")
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(draw_err)?;
        chart
            .configure_secondary_axes()
            .y_desc("level")
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(draw_err)?;
        let blue = RGBColor(74, 120, 181);
        chart
            .draw_series(LineSeries::new(
                steps(&|s| f64::from(s.score)),
                blue.stroke_width(2),
            ))
            .map_err(draw_err)?
            .label("score (left axis)")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 15, y)], blue.stroke_width(2)));
        chart
            .draw_secondary_series(LineSeries::new(
                steps(&|s| f64::from(s.level)),
                RED.stroke_width(2),
            ))
            .map_err(draw_err)?
            .label("level (right axis)")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], RED.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(draw_err)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// A histogram of durations on a log scale, from 10 µs to 100 s, five bins per decade.
///
/// # Errors
/// [`ChartError::NoData`] without values, [`ChartError::NotFinite`] for NaN/∞, else a backend
/// failure.
pub fn duration_histogram(title: &str, seconds: &[f64]) -> Result<String, ChartError> {
    const BINS_PER_DECADE: usize = 5;
    const LOW_MS: f64 = 0.01;
    const DECADES: usize = 7;
    if seconds.is_empty() {
        return Err(ChartError::NoData);
    }
    if seconds.iter().any(|v| !v.is_finite()) {
        return Err(ChartError::NotFinite);
    }
    let bins = BINS_PER_DECADE * DECADES;
    let mut counts = vec![0u32; bins];
    for &s in seconds {
        let x = (s * 1e3 / LOW_MS).max(1.0).log10() * BINS_PER_DECADE as f64;
        counts[(x as usize).min(bins - 1)] += 1;
    }
    let edge = |i: usize| LOW_MS * 10f64.powf(i as f64 / BINS_PER_DECADE as f64);
    let top = f64::from(counts.iter().copied().max().unwrap_or(1).max(1)) * 1.1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(60)
            .build_cartesian_2d((LOW_MS..edge(bins)).log_scale(), 0.0..top)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .disable_x_mesh()
            .x_desc(format!(
                "time per item, ms, log scale ({} items)",
                seconds.len()
            ))
            .y_desc("count")
            .x_label_formatter(&|v| tick_label(*v))
            .y_label_formatter(&|v| tick_label(*v))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(draw_err)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                Rectangle::new(
                    [(edge(i), 0.0), (edge(i + 1), f64::from(c))],
                    RGBColor(74, 120, 181).filled(),
                )
            }))
            .map_err(draw_err)?;
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(12.0), "12");
        assert_eq!(tick_label(250_000.0), "250k");
        assert_eq!(tick_label(1_500_000.0), "1.5M");
        assert_eq!(tick_label(0.25), "0.25");
    }

    #[test]
    fn curve_and_histogram_share_one_svg() {
        let points: Vec<(u32, f64, u64)> = (1..=40)
            .map(|k| (k * 10, f64::from(k) * 5_000.0, if k > 30 { 4 } else { 10 }))
            .collect();
        let curve = ScoreCurve {
            title: "score by lines",
            points: &points,
            reference_label: "reference",
            reference: &[(130, 657_892.0), (230, 1_293_916.0)],
        };
        let svg = score_curve(&curve).unwrap();
        assert!(svg.contains("this run (10 games; fewer as games end)"));
        assert!(svg.contains("half the games still playing (300 lines)"));
        assert!(svg.contains("1.29M"), "reference values are labelled");
        let values = [1.0, 2.0, 3.0];
        let h = Histogram {
            title: "scores",
            unit: "score",
            values: &values,
            mean: 2.0,
            ci95: None,
        };
        let both = histogram_and_curve(&h, &curve).unwrap();
        assert!(both.contains("score per game (3 games)") && both.contains("score by lines"));
        let bands = [
            ("0-130 lines".to_owned(), 500_000.0, 657_892.0, 0.55),
            ("130-230 lines".to_owned(), 466_000.0, 636_024.0, 0.49),
        ];
        let chart = BandChart {
            title: "points by band",
            bands: &bands,
            reference_label: "reference",
        };
        let all = histogram_curve_and_bands(&h, &curve, &chart).unwrap();
        assert!(all.contains("score by lines") && all.contains("points by band"));
        assert!(all.contains("130-230 lines") && all.contains("500k (55 % tetris)"));
        assert!(
            all.contains("657.9k"),
            "the reference's values are labelled"
        );
        assert_eq!(
            histogram_curve_and_bands(
                &h,
                &curve,
                &BandChart {
                    bands: &[],
                    ..chart.clone()
                }
            ),
            Err(ChartError::NoData)
        );
        assert_eq!(
            score_curve(&ScoreCurve {
                points: &[],
                ..curve.clone()
            }),
            Err(ChartError::NoData)
        );
    }

    #[test]
    fn histogram_is_svg_with_title_labels_and_mean() {
        let values: Vec<f64> = (0..50).map(|i| f64::from(i) * 1000.0).collect();
        let svg = histogram(&Histogram {
            title: "scores & <things>",
            unit: "score",
            values: &values,
            mean: 24_500.0,
            ci95: Some(Interval {
                low: 20_000.0,
                high: 29_000.0,
            }),
        })
        .unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..60]);
        assert!(svg.contains("scores &amp; &lt;things&gt;"));
        assert!(svg.contains("score per game (50 games)"));
        assert!(svg.contains("mean 24.5k"));
        assert!(svg.contains("\n40k\n"), "ticks use short labels");
        assert_eq!(
            histogram(&Histogram {
                values: &[],
                ..Histogram {
                    title: "",
                    unit: "",
                    values: &[1.0],
                    mean: 0.0,
                    ci95: None
                }
            }),
            Err(ChartError::NoData)
        );
    }

    #[test]
    fn score_and_level_has_both_axes() {
        let samples = [
            ScoreSample {
                time: 0,
                score: 0,
                level: 18,
            },
            ScoreSample {
                time: 5000,
                score: 120_000,
                level: 19,
            },
        ];
        let svg = score_and_level("one game", "frame", &samples).unwrap();
        assert!(svg.contains("score (left axis)") && svg.contains("level (right axis)"));
        assert_eq!(score_and_level("x", "frame", &[]), Err(ChartError::NoData));
    }

    #[test]
    fn duration_histogram_draws() {
        let svg = duration_histogram("times", &[1e-4, 2e-3, 0.5]).unwrap();
        assert!(svg.contains("log scale (3 items)"));
        assert_eq!(
            duration_histogram("t", &[f64::NAN]),
            Err(ChartError::NotFinite)
        );
    }
}
