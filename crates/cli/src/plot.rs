//! Hand-written SVG charts for multi-game runs and single games (no plotting dependency).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};

/// The opening of a chart: the `<svg>` element, a white background and the escaped title.
fn svg_start(w: f64, h: f64, left: f64, title: &str) -> Result<String> {
    let mut s = String::new();
    writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    )?;
    writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#)?;
    let esc = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    writeln!(s, r#"<text x="{left}" y="20">{esc}</text>"#)?;
    Ok(s)
}

/// A hand-written SVG histogram of one number per game (`unit`: "lines", "score") with the
/// mean and its 95% interval shaded.
pub(crate) fn histogram(
    path: &Path,
    lines: &[u64],
    mean: f64,
    ci: Option<(f64, f64)>,
    title: &str,
    unit: &str,
) -> Result<()> {
    let (w, h) = (720.0, 400.0);
    let (left, right, top, bottom) = (60.0, 20.0, 40.0, 50.0);
    let max = lines.iter().copied().max().unwrap_or(0).max(1) as f64;
    let bins = 20usize;
    let width = max / bins as f64;
    let mut counts = vec![0u64; bins];
    for &l in lines {
        let b = ((l as f64 / width) as usize).min(bins - 1);
        counts[b] += 1;
    }
    let cmax = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let pw = w - left - right;
    let ph = h - top - bottom;
    let x_of = |v: f64| left + v / max * pw;
    let mut s = svg_start(w, h, left, title)?;
    if let Some((lo, hi)) = ci {
        let (a, b) = (x_of(lo.max(0.0)), x_of(hi.min(max)));
        writeln!(
            s,
            r##"<rect x="{a:.1}" y="{top}" width="{:.1}" height="{ph}" fill="#ffcc80" opacity="0.6"/>"##,
            (b - a).max(1.0)
        )?;
    }
    for (i, &c) in counts.iter().enumerate() {
        let bh = c as f64 / cmax * ph;
        writeln!(
            s,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#4a78b5" stroke="white"/>"##,
            x_of(i as f64 * width),
            top + ph - bh,
            pw / bins as f64
        )?;
    }
    let mx = x_of(mean);
    writeln!(
        s,
        r##"<line x1="{mx:.1}" y1="{top}" x2="{mx:.1}" y2="{:.1}" stroke="#d32f2f" stroke-width="2"/>"##,
        top + ph
    )?;
    writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" fill="#d32f2f">mean {mean:.0}</text>"##,
        mx + 4.0,
        top + 14.0
    )?;
    // Axes and labels.
    writeln!(
        s,
        r#"<line x1="{left}" y1="{0}" x2="{1}" y2="{0}" stroke="black"/>"#,
        top + ph,
        left + pw
    )?;
    writeln!(
        s,
        r#"<line x1="{left}" y1="{top}" x2="{left}" y2="{}" stroke="black"/>"#,
        top + ph
    )?;
    for t in 0..=4 {
        let v = max * f64::from(t) / 4.0;
        writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{v:.0}</text>"#,
            x_of(v),
            top + ph + 16.0
        )?;
    }
    writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{unit} per game ({} games; shaded: 95% CI of the mean)</text>"#,
        left + pw / 2.0,
        h - 12.0,
        lines.len()
    )?;
    writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{cmax:.0}</text>"#,
        left - 4.0,
        top + 10.0
    )?;
    writeln!(s, "</svg>")?;
    std::fs::write(path, s).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// Score (left axis) and level (right axis) over the frames of one game, as step lines.
/// `samples` are `(frame, score, level)` at every change, in frame order.
pub(crate) fn score_and_level(path: &Path, samples: &[(u64, u32, u8)], title: &str) -> Result<()> {
    let (w, h) = (720.0, 400.0);
    let (left, right, top, bottom) = (70.0, 50.0, 40.0, 50.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let last_frame = samples.last().map_or(1, |s| s.0).max(1) as f64;
    let max_score = samples.iter().map(|s| s.1).max().unwrap_or(0).max(1) as f64;
    let max_level = f64::from(samples.iter().map(|s| s.2).max().unwrap_or(0).max(1));
    let x_of = |f: u64| left + f as f64 / last_frame * pw;
    let y_score = |v: u32| top + ph - f64::from(v) / max_score * ph;
    let y_level = |v: u8| top + ph - f64::from(v) / max_level * ph;
    let step_path = |y: &dyn Fn(&(u64, u32, u8)) -> f64| {
        let mut d = String::new();
        for (i, s) in samples.iter().enumerate() {
            let (x, yv) = (x_of(s.0), y(s));
            if i == 0 {
                let _ = write!(d, "M{x:.1},{yv:.1}");
            } else {
                let _ = write!(d, " H{x:.1} V{yv:.1}");
            }
        }
        d
    };
    let mut s = svg_start(w, h, left, title)?;
    writeln!(
        s,
        r##"<path d="{}" fill="none" stroke="#4a78b5" stroke-width="2"/>"##,
        step_path(&|p| y_score(p.1))
    )?;
    writeln!(
        s,
        r##"<path d="{}" fill="none" stroke="#d32f2f" stroke-width="1.5"/>"##,
        step_path(&|p| y_level(p.2))
    )?;
    writeln!(
        s,
        r#"<line x1="{left}" y1="{0}" x2="{1}" y2="{0}" stroke="black"/>"#,
        top + ph,
        left + pw
    )?;
    for t in 0..=4 {
        let f = (last_frame * f64::from(t) / 4.0) as u64;
        writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{f}</text>"#,
            x_of(f),
            top + ph + 16.0
        )?;
        let score = (max_score * f64::from(t) / 4.0) as u32;
        writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#4a78b5">{score}</text>"##,
            left - 4.0,
            y_score(score) + 4.0
        )?;
        let level = (max_level * f64::from(t) / 4.0).round() as u8;
        writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" fill="#d32f2f">{level}</text>"##,
            left + pw + 4.0,
            y_level(level) + 4.0
        )?;
    }
    writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">frame (blue: score, left axis; red: level, right axis)</text>"##,
        left + pw / 2.0,
        h - 12.0
    )?;
    writeln!(s, "</svg>")?;
    std::fs::write(path, s).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}
