//! Reading traces back and comparing whole traces: what only tests need of the engine's
//! per-frame traces (`playfield_nes::trace` writes them and compares single frames).

use std::fmt;

use playfield_nes::raw::game_mode;
use playfield_nes::trace::{Difference, KEYS, NUMBER_KEYS, PLAYFIELD_CELLS, PlayTrace, TraceFrame};

/// Parses a line written by [`TraceFrame::write_json`] (keys in any order, whitespace free).
///
/// # Errors
/// What is wrong with the line: bad JSON shape, an unknown, repeated or missing key, a value
/// out of range, or gameplay keys present only in part.
pub fn parse_trace_line(line: &str) -> Result<TraceFrame, TraceError> {
    let mut numbers: [Option<u64>; NUMBER_KEYS] = [None; NUMBER_KEYS];
    let mut playfield: Option<[u8; PLAYFIELD_CELLS]> = None;
    let body = line
        .trim()
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .ok_or(TraceError::Shape("not a `{...}` object"))?;
    let mut rest = body.trim();
    while !rest.is_empty() {
        let after_quote = rest
            .strip_prefix('"')
            .ok_or(TraceError::Shape("expected a key"))?;
        let (key, after_key) = after_quote
            .split_once('"')
            .ok_or(TraceError::Shape("unterminated key"))?;
        let after_colon = after_key
            .trim_start()
            .strip_prefix(':')
            .ok_or(TraceError::Shape("expected `:` after a key"))?
            .trim_start();
        let (value, after_value) = if let Some(s) = after_colon.strip_prefix('"') {
            let (v, r) = s
                .split_once('"')
                .ok_or(TraceError::Shape("unterminated string"))?;
            (v, r)
        } else {
            let end = after_colon.find(',').unwrap_or(after_colon.len());
            (after_colon[..end].trim(), &after_colon[end..])
        };
        rest = after_value.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            rest = r.trim_start();
            if rest.is_empty() {
                return Err(TraceError::Shape("trailing comma"));
            }
        } else if !rest.is_empty() {
            return Err(TraceError::Shape("expected `,` between entries"));
        }
        if playfield_nes::trace::ANNOTATION_KEYS.contains(&key) {
            // The engine's report on the frame (lag, crash), not RAM: not compared.
            continue;
        }
        let index = KEYS
            .iter()
            .position(|k| *k == key)
            .ok_or_else(|| TraceError::UnknownKey(key.chars().take(40).collect()))?;
        let key = KEYS[index];
        if index == NUMBER_KEYS {
            if playfield.is_some() {
                return Err(TraceError::RepeatedKey(key));
            }
            playfield = Some(parse_playfield(value)?);
            continue;
        }
        if numbers[index].is_some() {
            return Err(TraceError::RepeatedKey(key));
        }
        let n: u64 = value.parse().map_err(|_| TraceError::BadValue {
            key,
            value: value.chars().take(40).collect(),
        })?;
        numbers[index] = Some(n);
    }
    let number = |i: usize, max: u64| -> Result<u64, TraceError> {
        let n = numbers[i].ok_or(TraceError::MissingKey(KEYS[i]))?;
        if n > max {
            return Err(TraceError::BadValue {
                key: KEYS[i],
                value: n.to_string(),
            });
        }
        Ok(n)
    };
    let byte = |i: usize| number(i, 0xFF).map(|n| n as u8);
    let play_present =
        numbers[10..].iter().filter(|n| n.is_some()).count() + usize::from(playfield.is_some());
    let play = match play_present {
        0 => None,
        n if n == NUMBER_KEYS - 10 + 1 => Some(PlayTrace {
            play_state: byte(10)?,
            x: byte(11)?,
            y: byte(12)?,
            piece: byte(13)?,
            next: byte(14)?,
            level: byte(15)?,
            fall_timer: byte(16)?,
            das: byte(17)?,
            drop_autorepeat: byte(18)?,
            push_down: byte(19)?,
            lines: number(20, 0xFFFF)? as u16,
            score: number(21, 0xFF_FFFF)? as u32,
            completed_lines: byte(22)?,
            playfield: playfield.ok_or(TraceError::MissingKey("playfield"))?,
        }),
        _ => {
            let missing = (10..NUMBER_KEYS)
                .find(|&i| numbers[i].is_none())
                .map_or("playfield", |i| KEYS[i]);
            return Err(TraceError::MissingKey(missing));
        }
    };
    let frame = TraceFrame {
        frame: number(0, u64::MAX)?,
        game_mode: byte(1)?,
        frame_counter: number(2, 0xFFFF)? as u16,
        rng: number(3, 0xFFFF)? as u16,
        spawn_id: byte(4)?,
        spawn_count: byte(5)?,
        game_type: byte(6)?,
        music_type: byte(7)?,
        start_level: byte(8)?,
        start_height: byte(9)?,
        play,
    };
    if frame.play.is_some() != (frame.game_mode == game_mode::PLAY) {
        return Err(TraceError::PlayKeys {
            game_mode: frame.game_mode,
        });
    }
    Ok(frame)
}

/// Where two traces first part: a differing key, or one trace ending before the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Divergence {
    /// Both traces have this frame and it differs.
    Differs(Difference),
    /// One trace ends first.
    Length {
        /// Frames in the left trace.
        left: usize,
        /// Frames in the right trace.
        right: usize,
    },
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Divergence::Differs(d) => d.fmt(f),
            Divergence::Length { left, right } => {
                write!(f, "the traces have {left} and {right} frames")
            }
        }
    }
}

/// The first divergence between two traces, frame by frame, or `None` if they are equal.
#[must_use]
pub fn first_divergence(left: &[TraceFrame], right: &[TraceFrame]) -> Option<Divergence> {
    left.iter()
        .zip(right)
        .find_map(|(a, b)| a.first_difference(b))
        .map(Divergence::Differs)
        .or_else(|| {
            (left.len() != right.len()).then_some(Divergence::Length {
                left: left.len(),
                right: right.len(),
            })
        })
}

/// An error reading a trace line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TraceError {
    /// The line is not a flat JSON object of numbers and strings.
    Shape(&'static str),
    /// A key that is not in [`KEYS`].
    UnknownKey(String),
    /// A key given twice.
    RepeatedKey(&'static str),
    /// A required key is missing.
    MissingKey(&'static str),
    /// A value that does not fit its key.
    BadValue {
        /// The key.
        key: &'static str,
        /// The value found.
        value: String,
    },
    /// Gameplay keys present outside `game_mode` 4, or absent in it.
    PlayKeys {
        /// The line's `game_mode`.
        game_mode: u8,
    },
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Shape(what) => write!(f, "trace line: {what}"),
            TraceError::UnknownKey(k) => write!(f, "trace line: unknown key {k:?}"),
            TraceError::RepeatedKey(k) => write!(f, "trace line: key `{k}` given twice"),
            TraceError::MissingKey(k) => write!(f, "trace line: no `{k}`"),
            TraceError::BadValue { key, value } => {
                write!(f, "trace line: `{key}` cannot be {value:?}")
            }
            TraceError::PlayKeys { game_mode } => write!(
                f,
                "trace line: gameplay keys must be present exactly when game_mode is 4, \
                 and game_mode is {game_mode}"
            ),
        }
    }
}

impl std::error::Error for TraceError {}

fn parse_playfield(hex: &str) -> Result<[u8; PLAYFIELD_CELLS], TraceError> {
    let bad = || TraceError::BadValue {
        key: "playfield",
        value: hex.chars().take(40).collect(),
    };
    let bytes = hex.as_bytes();
    if bytes.len() != PLAYFIELD_CELLS * 2 {
        return Err(bad());
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; PLAYFIELD_CELLS];
    for (i, cell) in out.iter_mut().enumerate() {
        let hi = digit(bytes[2 * i]).ok_or_else(bad)?;
        let lo = digit(bytes[2 * i + 1]).ok_or_else(bad)?;
        *cell = hi << 4 | lo;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use playfield_nes::{Buttons, GameSetup, MenuDriver, Nes};

    /// The traces of the first `frames` frames of a real game from power-on (menus, then
    /// gameplay with Down held), so they hold every key, in and out of play.
    fn game_trace(frames: u64) -> Vec<TraceFrame> {
        let mut nes = Nes::power_on();
        let mut menus = MenuDriver::new(GameSetup::b_type(7, 3), 0);
        let mut prev = Buttons::NONE;
        (1..=frames)
            .map(|f| {
                let b = if nes.in_game() {
                    Buttons::DOWN
                } else {
                    menus.buttons(&nes, prev)
                };
                nes.step(b);
                prev = b;
                TraceFrame::from_ram(f, &nes.ram())
            })
            .collect()
    }

    #[test]
    fn annotations_are_read_and_not_compared() {
        let t = &game_trace(300)[299];
        let mut s = String::new();
        t.write_json_annotated(&mut s, true, Some(0xAC93));
        assert!(s.ends_with(",\"lag\":1,\"crash\":44179}\n"), "{s}");
        assert_eq!(&parse_trace_line(&s).unwrap(), t);
        let mut plain = String::new();
        t.write_json_annotated(&mut plain, false, None);
        assert_eq!(plain, t.to_json_line());
    }

    #[test]
    fn json_round_trips() {
        let trace = game_trace(2_000);
        assert!(trace.iter().any(|t| t.play.is_some()));
        assert!(trace.iter().any(|t| t.play.is_none()));
        for t in &trace {
            assert_eq!(&parse_trace_line(&t.to_json_line()).unwrap(), t);
        }
    }

    #[test]
    fn json_parse_errors_say_what() {
        let t = game_trace(2_000)
            .into_iter()
            .rfind(|t| t.play.as_ref().is_some_and(|p| p.x == 5))
            .expect("a frame in play with the piece in column 5")
            .to_json_line();
        let cases = [
            ("", "object"),
            (&t.replace("\"x\":5", "\"x\":256"), "`x`"),
            (&t.replace("\"x\":5,", ""), "no `x`"),
            (&t.replace("\"x\"", "\"z\""), "unknown key \"z\""),
            (&t.replace("\"y\"", "\"x\""), "`x` given twice"),
            (
                &t.replace("\"game_mode\":4", "\"game_mode\":3"),
                "game_mode is 3",
            ),
            (
                &t.replace("\"playfield\":\"", "\"playfield\":\"X"),
                "`playfield`",
            ),
        ];
        for (line, want) in cases {
            let e = parse_trace_line(line).unwrap_err();
            assert!(e.to_string().contains(want), "{want}: {e}");
        }
    }

    #[test]
    fn divergence_of_whole_traces() {
        let a = game_trace(50);
        assert_eq!(first_divergence(&a, &a), None);
        assert_eq!(
            first_divergence(&a, &a[..30]),
            Some(Divergence::Length {
                left: 50,
                right: 30
            })
        );
        let mut b = a.clone();
        b[3].rng ^= 1;
        let d = first_divergence(&a, &b).unwrap();
        assert!(d.to_string().starts_with("frame 4: `rng` differs: "), "{d}");
    }

    proptest::proptest! {
        #[test]
        fn trace_lines_never_panic(text in proptest::prelude::any::<String>()) {
            let _ = parse_trace_line(&text);
        }
    }
}
