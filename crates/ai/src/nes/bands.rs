//! Weights by level band: a weights file may replace some of its terms from a level on, or at
//! double speed, so that the score player can play the fast levels by other rules than level 18
//! without changing how it plays before them.
//!
//! In a weights file the bands are one section beside the terms:
//!
//! ```json
//! "bands": { "29": { "tetris": 60.0 }, "double_speed": { "burn": 0.0, "danger": -6.0 } }
//! ```
//!
//! A key is a level (the band holds from that level on) or `double_speed` (while the pieces fall
//! two rows a frame, the benchmark option). Each band's terms replace the base terms, not another
//! band's: a band with no terms (`"26": {}`) brings the base terms back from its level. A
//! decision uses one set of weights, chosen by the level of the piece it places: the
//! double-speed band if the gravity is doubled and the file has one, else the band of the
//! highest level at or below the piece's, else the base terms. Without bands the weights are
//! the base terms at every level, exactly as before bands existed.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use playfield_nes::rules::{self, Gravity};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::score::{ScoreWeights, TERM_NAMES};

/// Where a band's terms hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Band {
    /// From this level on (unless the double-speed band holds).
    FromLevel(u8),
    /// While the gravity is doubled (the benchmark's double-speed option).
    DoubleSpeed,
}

/// The key of the double-speed band in a weights file.
pub const DOUBLE_SPEED_KEY: &str = "double_speed";

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Band::FromLevel(level) => write!(f, "{level}"),
            Band::DoubleSpeed => f.write_str(DOUBLE_SPEED_KEY),
        }
    }
}

impl FromStr for Band {
    type Err = String;

    /// A level 0-255, or `double_speed` (also `double-speed`).
    fn from_str(s: &str) -> Result<Band, String> {
        if s == DOUBLE_SPEED_KEY || s == "double-speed" {
            return Ok(Band::DoubleSpeed);
        }
        s.parse::<u8>().map(Band::FromLevel).map_err(|_| {
            format!("band {s:?}: expected a level 0-255 (the band holds from it on) or {DOUBLE_SPEED_KEY:?}")
        })
    }
}

impl Band {
    /// The level at which the band starts in a game of `start_level` with `double_speed_level`
    /// (`None` for the double-speed band when the game has no double speed).
    #[must_use]
    pub fn first_level(self, double_speed_level: Option<u8>) -> Option<u8> {
        match self {
            Band::FromLevel(level) => Some(level),
            Band::DoubleSpeed => double_speed_level,
        }
    }

    /// The lines at which an A-type game from `start_level` reaches this band
    /// (`incrementLines`' level-ups), if it does within 2,600 lines.
    #[must_use]
    pub fn first_line(self, start_level: u8, double_speed_level: Option<u8>) -> Option<u32> {
        let target = self.first_level(double_speed_level)?;
        if target <= start_level {
            return Some(0);
        }
        let (mut counter, mut level) = ([0u8; 2], start_level);
        for lines in 1..=2_600u32 {
            rules::increment_lines(&mut counter, &mut level);
            if level == target {
                return Some(lines);
            }
        }
        None
    }
}

/// The bands of a weights file: for each, the terms it replaces, by name. Empty: none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bands(BTreeMap<Band, BTreeMap<&'static str, f64>>);

impl Bands {
    /// Whether there is no band.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The terms `band` replaces (empty when it has none).
    #[must_use]
    pub fn terms_of(&self, band: Band) -> BTreeMap<&'static str, f64> {
        self.0.get(&band).cloned().unwrap_or_default()
    }

    /// The bands, each with the terms it replaces.
    pub fn iter(&self) -> impl Iterator<Item = (Band, &BTreeMap<&'static str, f64>)> {
        self.0.iter().map(|(b, t)| (*b, t))
    }

    /// Sets the terms `band` replaces. A band with no terms holds the base terms from its
    /// level on (ending the band below it); it is dropped only where it changes nothing, the
    /// base terms holding there without it ([`Bands::drop_redundant`]).
    ///
    /// # Errors
    /// When a name is not a term or a value is not finite.
    pub fn set(&mut self, band: Band, terms: &BTreeMap<String, f64>) -> Result<(), String> {
        self.insert(band, terms)?;
        self.drop_redundant();
        Ok(())
    }

    /// [`Bands::set`] without dropping the redundant bands: a file's bands are all read first,
    /// since whether an empty band changes anything depends on the bands below it.
    fn insert(&mut self, band: Band, terms: &BTreeMap<String, f64>) -> Result<(), String> {
        let mut checked = BTreeMap::new();
        for (name, &value) in terms {
            let Some(&known) = TERM_NAMES.iter().find(|n| **n == name) else {
                return Err(format!(
                    "band {band}: {name:?} is not a term (terms: {})",
                    TERM_NAMES.join(", ")
                ));
            };
            if let Some(problem) = super::score::term_problem(known, value) {
                return Err(format!("band {band}: {problem}"));
            }
            checked.insert(known, value);
        }
        self.0.insert(band, checked);
        Ok(())
    }

    /// Drops the bands with no terms where the base terms would hold without them: a level
    /// band with none (or none with terms) below it, and a double-speed band while no level
    /// band has terms.
    fn drop_redundant(&mut self) {
        let mut base_holds = true;
        let mut redundant = Vec::new();
        for (band, terms) in &self.0 {
            if let Band::FromLevel(_) = band {
                if terms.is_empty() && base_holds {
                    redundant.push(*band);
                }
                base_holds = terms.is_empty();
            }
        }
        let any_level_terms = self
            .0
            .iter()
            .any(|(band, terms)| matches!(band, Band::FromLevel(_)) && !terms.is_empty());
        if !any_level_terms
            && self
                .0
                .get(&Band::DoubleSpeed)
                .is_some_and(BTreeMap::is_empty)
        {
            redundant.push(Band::DoubleSpeed);
        }
        for band in redundant {
            self.0.remove(&band);
        }
    }

    /// The band that holds at `level` under `gravity`, if any (see the module comment).
    #[must_use]
    pub fn holding_at(&self, level: u8, gravity: Gravity) -> Option<Band> {
        if gravity.double && self.0.contains_key(&Band::DoubleSpeed) {
            return Some(Band::DoubleSpeed);
        }
        self.0
            .keys()
            .rev()
            .find(|b| matches!(b, Band::FromLevel(from) if *from <= level))
            .copied()
    }
}

impl Serialize for Bands {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(band, terms)| (band.to_string(), terms)))
    }
}

impl<'de> Deserialize<'de> for Bands {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bands, D::Error> {
        let raw = BTreeMap::<String, BTreeMap<String, f64>>::deserialize(d)?;
        let mut bands = Bands::default();
        let mut keys: BTreeMap<Band, &str> = BTreeMap::new();
        for (key, terms) in &raw {
            let band: Band = key.parse().map_err(serde::de::Error::custom)?;
            // "18" and "018", or "double_speed" and "double-speed": one band given twice, and
            // only one of them would hold.
            if let Some(other) = keys.insert(band, key) {
                return Err(serde::de::Error::custom(format!(
                    "bands {other:?} and {key:?} are the same band"
                )));
            }
            bands
                .insert(band, terms)
                .map_err(serde::de::Error::custom)?;
        }
        bands.drop_redundant();
        Ok(bands)
    }
}

impl ScoreWeights {
    /// The weights a decision uses for a piece at `level` under `gravity`: the base terms with
    /// the holding band's replaced ([`Bands::holding_at`]), and no bands; the weights themselves
    /// when no band holds.
    #[must_use]
    pub fn at_level(&self, level: u8, gravity: Gravity) -> Cow<'_, ScoreWeights> {
        match self.bands.holding_at(level, gravity) {
            None => Cow::Borrowed(self),
            Some(band) => Cow::Owned(self.band_weights(band)),
        }
    }

    /// The base terms with `band`'s replaced, without bands.
    #[must_use]
    pub fn band_weights(&self, band: Band) -> ScoreWeights {
        let replaced = self.bands.terms_of(band);
        let values: Vec<f64> = self
            .terms()
            .into_iter()
            .map(|(name, value)| replaced.get(name).copied().unwrap_or(value))
            .collect();
        ScoreWeights {
            value: self.value.clone(),
            ..ScoreWeights::from_terms(&values)
        }
    }

    /// These weights with `band` replacing the terms in which `within` differs from the base
    /// terms (and no others): how a band is written from the weights it should play with.
    #[must_use]
    pub fn with_band(&self, band: Band, within: &ScoreWeights) -> ScoreWeights {
        let terms: BTreeMap<String, f64> = self
            .terms()
            .into_iter()
            .zip(within.terms())
            .filter(|((_, base), (_, value))| base.to_bits() != value.to_bits())
            .map(|(_, (name, value))| (name.to_owned(), value))
            .collect();
        let mut out = self.clone();
        out.bands
            .set(band, &terms)
            .expect("terms of finite weights");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gravity(level: u8) -> Gravity {
        Gravity::with_double_speed(level, Some(39))
    }

    /// The shipped weights' terms, without their bands.
    fn base_terms() -> ScoreWeights {
        ScoreWeights {
            bands: Bands::default(),
            ..ScoreWeights::shipped()
        }
    }

    #[test]
    fn a_band_changes_the_weights_from_its_level_on_and_only_there() {
        let base = base_terms();
        let text = serde_json::to_string(&base).unwrap().replacen(
            '{',
            r#"{"bands":{"29":{"tetris":60.0,"burn":-20.0}},"#,
            1,
        );
        let banded = ScoreWeights::parse(&text).unwrap();
        for level in [18, 19, 28] {
            assert_eq!(*banded.at_level(level, gravity(level)), banded, "{level}");
            assert!(matches!(
                banded.at_level(level, gravity(level)),
                Cow::Borrowed(_)
            ));
        }
        for level in [29, 38, 39, 60] {
            let w = banded.at_level(level, gravity(level));
            assert_eq!((w.tetris, w.burn), (60.0, -20.0), "{level}");
            // Every other term is the base's, and the band's weights have no bands.
            let expected = ScoreWeights {
                tetris: 60.0,
                burn: -20.0,
                ..base.clone()
            };
            assert_eq!(*w, expected);
        }
        // Written back, the file reads the same.
        let again = ScoreWeights::parse(&serde_json::to_string(&banded).unwrap()).unwrap();
        assert_eq!(again, banded);
    }

    #[test]
    fn the_double_speed_band_holds_while_the_gravity_is_doubled() {
        let base = base_terms();
        let mut banded = base.with_band(
            Band::FromLevel(29),
            &ScoreWeights {
                tetris: 60.0,
                ..base.clone()
            },
        );
        banded = banded.with_band(
            Band::DoubleSpeed,
            &ScoreWeights {
                danger: -9.0,
                ..base.clone()
            },
        );
        assert_eq!(banded.bands.iter().count(), 2);
        assert_eq!(banded.at_level(38, gravity(38)).tetris, 60.0);
        assert_eq!(banded.at_level(38, gravity(38)).danger, base.danger);
        // At double speed the double-speed band replaces the base terms alone.
        let double = banded.at_level(40, gravity(40));
        assert_eq!((double.tetris, double.danger), (base.tetris, -9.0));
        // Without double speed, level 40 is in level 29's band.
        let plain = Gravity::with_double_speed(40, None);
        assert_eq!(banded.at_level(40, plain).tetris, 60.0);
        // A band equal to the base terms is no band.
        assert!(base.with_band(Band::DoubleSpeed, &base).bands.is_empty());
    }

    #[test]
    fn a_band_with_no_terms_brings_back_the_base_terms_from_its_level() {
        let base = base_terms();
        let json = serde_json::to_string(&base).unwrap();
        let with = |bands: &str| ScoreWeights::parse(&json.replacen('{', bands, 1)).unwrap();
        // Levels 19-25 play the band, 26 on the base terms, whatever the keys' order.
        for bands in [
            r#"{"bands":{"19":{"danger":-9.0},"26":{}},"#,
            r#"{"bands":{"26":{},"19":{"danger":-9.0}},"#,
        ] {
            let w = with(bands);
            assert_eq!(w.bands.iter().count(), 2, "{bands}");
            for (level, danger) in [(18, base.danger), (19, -9.0), (25, -9.0), (26, base.danger)] {
                assert_eq!(
                    w.at_level(level, gravity(level)).danger,
                    danger,
                    "{bands} {level}"
                );
            }
            // Written back, the empty band stays.
            let again = ScoreWeights::parse(&serde_json::to_string(&w).unwrap()).unwrap();
            assert_eq!(again, w);
        }
        // A level band written after a higher empty one in string order ("100" < "29").
        let w = with(r#"{"bands":{"100":{},"29":{"danger":-9.0}},"#);
        assert_eq!(w.at_level(99, gravity(99)).danger, -9.0);
        assert_eq!(w.at_level(100, gravity(100)).danger, base.danger);
        // Where the base terms hold anyway, an empty band is no band.
        assert!(with(r#"{"bands":{"26":{}},"#).bands.is_empty());
        assert!(with(r#"{"bands":{"double_speed":{}},"#).bands.is_empty());
        // At double speed an empty band holds the base terms, not level 29's band.
        let w = with(r#"{"bands":{"29":{"danger":-9.0},"double_speed":{}},"#);
        assert_eq!(w.at_level(40, gravity(40)).danger, base.danger);
        assert_eq!(w.at_level(38, gravity(38)).danger, -9.0);
        // The tuner writes a band equal to the base terms above another band the same way.
        let tuned = w.with_band(Band::FromLevel(35), &base);
        assert_eq!(tuned.at_level(35, gravity(35)).danger, base.danger);
        assert_eq!(tuned.at_level(34, gravity(34)).danger, -9.0);
    }

    #[test]
    fn bad_bands_say_what_is_wrong() {
        let json = serde_json::to_string(&base_terms()).unwrap();
        let with = |bands: &str| ScoreWeights::parse(&json.replacen('{', bands, 1));
        let e = with(r#"{"bands":{"29":{"tetriz":1}},"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("tetriz") && e.contains("band 29"), "{e}");
        let e = with(r#"{"bands":{"fast":{"tetris":1}},"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("fast"), "{e}");
        let e = with(r#"{"bands":{"29":{"tetris":"x"}},"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad weights"), "{e}");
        assert!(with(r#"{"bands":{"double_speed":{"burn":0}},"#).is_ok());
        let e = with(r#"{"bands":{"18":{"tetris":1},"018":{"tetris":2}},"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"018\" and \"18\" are the same band"), "{e}");
        let e = with(r#"{"bands":{"double_speed":{},"double-speed":{"burn":1}},"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("same band"), "{e}");
        let e = with(r#"{"bands":{"29":{"safe_height_fast":-2}},"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("band 29: term safe_height_fast is -2, expected 0 to 20 (rows)"),
            "{e}"
        );
        let e = with(r#"{"bands":{"29":{"danger":-1.7e308}},"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("term danger") && e.contains("a price"), "{e}");
    }

    #[test]
    fn a_band_starts_where_the_game_reaches_its_level() {
        // From level 18: level 19 at 130 lines, 29 at 230, double speed (39) at 330.
        assert_eq!(Band::FromLevel(19).first_line(18, Some(39)), Some(130));
        assert_eq!(Band::FromLevel(29).first_line(18, Some(39)), Some(230));
        assert_eq!(Band::DoubleSpeed.first_line(18, Some(39)), Some(330));
        assert_eq!(Band::DoubleSpeed.first_line(18, None), None);
        assert_eq!(Band::FromLevel(10).first_line(18, None), Some(0));
        assert_eq!("double-speed".parse::<Band>(), Ok(Band::DoubleSpeed));
        assert!("300".parse::<Band>().is_err());
    }
}
