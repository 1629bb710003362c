//! Per-frame traces: the RAM variables the engine and the real ROM are compared on.
//!
//! One [`TraceFrame`] per frame `F` (the state after `F` input lines), written as one JSON object
//! per line with the keys in a fixed order. The gameplay keys are present only while `game_mode`
//! is 4, because outside play the ROM leaves stale values in them that the engine need not model.
//!
//! An engine's trace may end a line with what the engine reported for that frame, which is not
//! RAM and not compared: `"lag":1` on a lag frame, `"crash":ADDRESS` on the frame the game
//! crashed (the instruction the NMI interrupted; see [`ANNOTATION_KEYS`]).

use std::fmt::{self, Write as _};

/// `gameMode` value for gameplay.
const GAME_MODE_PLAY: u8 = 4;

/// Start of the playfield in RAM (`playfield`, $0400).
const PLAYFIELD: usize = 0x0400;

/// Cells in the playfield: 20 rows of 10.
pub const PLAYFIELD_CELLS: usize = 200;

/// The values traced while `game_mode` is 4 (gameplay).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayTrace {
    /// `playState` ($48).
    pub play_state: u8,
    /// `tetriminoX` ($40).
    pub x: u8,
    /// `tetriminoY` ($41).
    pub y: u8,
    /// `currentPiece` ($42), the orientation id.
    pub piece: u8,
    /// `nextPiece` ($BF).
    pub next: u8,
    /// `levelNumber` ($44).
    pub level: u8,
    /// `fallTimer` ($45).
    pub fall_timer: u8,
    /// `autorepeatX` ($46).
    pub das: u8,
    /// `autorepeatY` ($4E).
    pub drop_autorepeat: u8,
    /// `holdDownPoints` ($4F).
    pub push_down: u8,
    /// `lines` ($50 | $51<<8), raw BCD.
    pub lines: u16,
    /// `score` ($53 | $54<<8 | $55<<16), raw BCD.
    pub score: u32,
    /// `completedLines` ($56).
    pub completed_lines: u8,
    /// `playfield` ($0400-$04C7), row by row, tile ids ($EF = empty).
    pub playfield: [u8; PLAYFIELD_CELLS],
}

/// The traced variables of one frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraceFrame {
    /// Frame number `F`: the state after `F` input lines.
    pub frame: u64,
    /// `gameMode` ($C0).
    pub game_mode: u8,
    /// `frameCounter` ($B1 | $B2<<8).
    pub frame_counter: u16,
    /// `rng_seed` ($17<<8 | $18).
    pub rng: u16,
    /// `spawnID` ($19).
    pub spawn_id: u8,
    /// `spawnCount` ($1A).
    pub spawn_count: u8,
    /// `gameType` ($C1).
    pub game_type: u8,
    /// `musicType` ($C2).
    pub music_type: u8,
    /// `player1_startLevel` ($67).
    pub start_level: u8,
    /// `player1_startHeight` ($79).
    pub start_height: u8,
    /// The gameplay values, present exactly when `game_mode` is 4.
    pub play: Option<PlayTrace>,
}

/// One value of a trace, as the comparison reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceValue {
    /// Any numeric key, absent keys included as `None`.
    Number(Option<u64>),
    /// The playfield as lowercase hex.
    Hex(Option<String>),
}

impl fmt::Display for TraceValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceValue::Number(Some(n)) => write!(f, "{n}"),
            TraceValue::Hex(Some(h)) => write!(f, "{h}"),
            TraceValue::Number(None) | TraceValue::Hex(None) => write!(f, "(absent)"),
        }
    }
}

/// The first key on which two traces of the same frame differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Frame number (of the left trace).
    pub frame: u64,
    /// The key, as written in the JSON lines.
    pub key: &'static str,
    /// The left value.
    pub left: TraceValue,
    /// The right value.
    pub right: TraceValue,
    /// For `playfield`, the first differing cell (0-199, row * 10 + column).
    pub cell: Option<usize>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame {}: `{}` differs", self.frame, self.key)?;
        match (self.cell, &self.left, &self.right) {
            (Some(cell), TraceValue::Hex(Some(l)), TraceValue::Hex(Some(r))) => write!(
                f,
                " at row {} column {} (${:04X}): {} vs {}",
                cell / 10,
                cell % 10,
                PLAYFIELD + cell,
                &l[cell * 2..cell * 2 + 2],
                &r[cell * 2..cell * 2 + 2],
            ),
            _ => write!(f, ": {} vs {}", self.left, self.right),
        }
    }
}

/// The keys in output order.
pub const KEYS: [&str; 24] = [
    "frame",
    "game_mode",
    "frame_counter",
    "rng",
    "spawn_id",
    "spawn_count",
    "game_type",
    "music_type",
    "start_level",
    "start_height",
    "play_state",
    "x",
    "y",
    "piece",
    "next",
    "level",
    "fall_timer",
    "das",
    "drop_autorepeat",
    "push_down",
    "lines",
    "score",
    "completed_lines",
    "playfield",
];

/// Number of numeric keys (all but `playfield`, the last).
pub const NUMBER_KEYS: usize = KEYS.len() - 1;

/// Keys an engine's trace may add after [`KEYS`]: its report on the frame, not compared.
pub const ANNOTATION_KEYS: [&str; 2] = ["lag", "crash"];

impl TraceFrame {
    /// Reads the traced variables from a RAM image ($0000-$07FF) of the state after `frame`
    /// input lines.
    #[must_use]
    pub fn from_ram(frame: u64, ram: &[u8; 0x800]) -> TraceFrame {
        let game_mode = ram[0xC0];
        let play = (game_mode == GAME_MODE_PLAY).then(|| {
            let mut playfield = [0; PLAYFIELD_CELLS];
            playfield.copy_from_slice(&ram[PLAYFIELD..PLAYFIELD + PLAYFIELD_CELLS]);
            PlayTrace {
                play_state: ram[0x48],
                x: ram[0x40],
                y: ram[0x41],
                piece: ram[0x42],
                next: ram[0xBF],
                level: ram[0x44],
                fall_timer: ram[0x45],
                das: ram[0x46],
                drop_autorepeat: ram[0x4E],
                push_down: ram[0x4F],
                lines: u16::from_le_bytes([ram[0x50], ram[0x51]]),
                score: u32::from_le_bytes([ram[0x53], ram[0x54], ram[0x55], 0]),
                completed_lines: ram[0x56],
                playfield,
            }
        });
        TraceFrame {
            frame,
            game_mode,
            frame_counter: u16::from_le_bytes([ram[0xB1], ram[0xB2]]),
            rng: u16::from_be_bytes([ram[0x17], ram[0x18]]),
            spawn_id: ram[0x19],
            spawn_count: ram[0x1A],
            game_type: ram[0xC1],
            music_type: ram[0xC2],
            start_level: ram[0x67],
            start_height: ram[0x79],
            play,
        }
    }

    /// The numeric keys' values in [`KEYS`] order; gameplay keys are `None` outside play.
    #[must_use]
    pub fn numbers(&self) -> [Option<u64>; NUMBER_KEYS] {
        let p = self.play.as_ref();
        let g = |f: fn(&PlayTrace) -> u64| p.map(f);
        [
            Some(self.frame),
            Some(self.game_mode.into()),
            Some(self.frame_counter.into()),
            Some(self.rng.into()),
            Some(self.spawn_id.into()),
            Some(self.spawn_count.into()),
            Some(self.game_type.into()),
            Some(self.music_type.into()),
            Some(self.start_level.into()),
            Some(self.start_height.into()),
            g(|p| p.play_state.into()),
            g(|p| p.x.into()),
            g(|p| p.y.into()),
            g(|p| p.piece.into()),
            g(|p| p.next.into()),
            g(|p| p.level.into()),
            g(|p| p.fall_timer.into()),
            g(|p| p.das.into()),
            g(|p| p.drop_autorepeat.into()),
            g(|p| p.push_down.into()),
            g(|p| p.lines.into()),
            g(|p| p.score.into()),
            g(|p| p.completed_lines.into()),
        ]
    }

    /// The playfield as 400 lowercase hex characters, or `None` outside play.
    #[must_use]
    pub fn playfield_hex(&self) -> Option<String> {
        self.play.as_ref().map(|p| {
            let mut s = String::with_capacity(PLAYFIELD_CELLS * 2);
            for b in p.playfield {
                let _ = write!(s, "{b:02x}");
            }
            s
        })
    }

    /// Appends this frame as one JSON object and a newline, keys in [`KEYS`] order.
    pub fn write_json(&self, out: &mut String) {
        out.push('{');
        let mut first = true;
        for (key, value) in KEYS.iter().zip(self.numbers()) {
            if let Some(v) = value {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, "\"{key}\":{v}");
            }
        }
        if let Some(hex) = self.playfield_hex() {
            let _ = write!(out, ",\"playfield\":\"{hex}\"");
        }
        out.push_str("}\n");
    }

    /// Appends this frame as [`TraceFrame::write_json`] does, ending with the engine's report on
    /// it: `"lag":1` when it was a lag frame, `"crash":ADDRESS` when the game crashed in it.
    pub fn write_json_annotated(&self, out: &mut String, lag: bool, crash: Option<u16>) {
        self.write_json(out);
        if !lag && crash.is_none() {
            return;
        }
        out.truncate(out.len() - 2); // "}\n"
        if lag {
            out.push_str(",\"lag\":1");
        }
        if let Some(address) = crash {
            let _ = write!(out, ",\"crash\":{address}");
        }
        out.push_str("}\n");
    }

    /// This frame as one JSON line (with its newline).
    #[must_use]
    pub fn to_json_line(&self) -> String {
        let mut s = String::with_capacity(700);
        self.write_json(&mut s);
        s
    }

    /// The first key (in [`KEYS`] order) whose value differs between `self` and `other`.
    #[must_use]
    pub fn first_difference(&self, other: &TraceFrame) -> Option<Difference> {
        let (a, b) = (self.numbers(), other.numbers());
        for i in 0..NUMBER_KEYS {
            if a[i] != b[i] {
                return Some(Difference {
                    frame: self.frame,
                    key: KEYS[i],
                    left: TraceValue::Number(a[i]),
                    right: TraceValue::Number(b[i]),
                    cell: None,
                });
            }
        }
        let (pa, pb) = (self.play.as_ref(), other.play.as_ref());
        let cell = match (pa, pb) {
            (Some(pa), Some(pb)) => {
                (0..PLAYFIELD_CELLS).find(|&i| pa.playfield[i] != pb.playfield[i])
            }
            _ => None,
        };
        if pa.map(|p| p.playfield) != pb.map(|p| p.playfield) {
            return Some(Difference {
                frame: self.frame,
                key: "playfield",
                left: TraceValue::Hex(self.playfield_hex()),
                right: TraceValue::Hex(other.playfield_hex()),
                cell,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ram_in_play() -> [u8; 0x800] {
        let mut ram = [0u8; 0x800];
        ram[0xC0] = 4;
        ram[0xB1] = 0x34;
        ram[0xB2] = 0x12;
        ram[0x17] = 0x89;
        ram[0x18] = 0x88;
        ram[0x19] = 0x0A;
        ram[0x1A] = 7;
        ram[0xC1] = 1;
        ram[0xC2] = 2;
        ram[0x67] = 18;
        ram[0x79] = 3;
        ram[0x48] = 1;
        ram[0x40] = 5;
        ram[0x41] = 0;
        ram[0x42] = 2;
        ram[0xBF] = 0x0E;
        ram[0x44] = 18;
        ram[0x45] = 1;
        ram[0x46] = 16;
        ram[0x4E] = 0xFD;
        ram[0x4F] = 6;
        ram[0x50] = 0x30;
        ram[0x51] = 0x01;
        ram[0x53] = 0x99;
        ram[0x54] = 0x99;
        ram[0x55] = 0x99;
        ram[0x56] = 4;
        ram[0x400..0x4C8].fill(0xEF);
        ram[0x4C7] = 0x7B;
        ram[0x4C8] = 0x55; // just past the playfield: must not be traced
        ram
    }

    #[test]
    fn reads_the_issue_keys_from_ram() {
        let t = TraceFrame::from_ram(42, &ram_in_play());
        assert_eq!(t.frame, 42);
        assert_eq!(t.frame_counter, 0x1234);
        assert_eq!(t.rng, 0x8988);
        assert_eq!((t.spawn_id, t.spawn_count), (0x0A, 7));
        assert_eq!((t.game_type, t.music_type), (1, 2));
        assert_eq!((t.start_level, t.start_height), (18, 3));
        let p = t.play.as_ref().unwrap();
        assert_eq!(
            (p.play_state, p.x, p.y, p.piece, p.next),
            (1, 5, 0, 2, 0x0E)
        );
        assert_eq!((p.level, p.fall_timer, p.das), (18, 1, 16));
        assert_eq!((p.drop_autorepeat, p.push_down), (0xFD, 6));
        assert_eq!(p.lines, 0x0130);
        assert_eq!(p.score, 0x99_9999);
        assert_eq!(p.completed_lines, 4);
        assert_eq!(p.playfield[199], 0x7B);
        assert_eq!(p.playfield[0], 0xEF);
    }

    #[test]
    fn json_has_keys_in_order() {
        let t = TraceFrame::from_ram(42, &ram_in_play());
        let line = t.to_json_line();
        assert!(line.ends_with("\"}\n"));
        assert_eq!(line.lines().count(), 1);
        let expected_start = "{\"frame\":42,\"game_mode\":4,\"frame_counter\":4660,\
            \"rng\":35208,\"spawn_id\":10,\"spawn_count\":7,\"game_type\":1,\
            \"music_type\":2,\"start_level\":18,\"start_height\":3,\"play_state\":1,\
            \"x\":5,\"y\":0,\"piece\":2,\"next\":14,\"level\":18,\"fall_timer\":1,\
            \"das\":16,\"drop_autorepeat\":253,\"push_down\":6,\"lines\":304,\
            \"score\":10066329,\"completed_lines\":4,\"playfield\":\"efef";
        assert!(line.starts_with(expected_start), "{line}");
        assert!(line.ends_with("ef7b\"}\n"), "{line}");
        let hex = t.playfield_hex().unwrap();
        assert_eq!(hex.len(), 400);
        assert!(
            hex.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        );
    }

    #[test]
    fn outside_play_only_the_common_keys() {
        let mut ram = ram_in_play();
        ram[0xC0] = 3;
        let t = TraceFrame::from_ram(7, &ram);
        assert!(t.play.is_none());
        let line = t.to_json_line();
        assert!(line.ends_with("\"start_height\":3}\n"), "{line}");
        assert!(!line.contains("play_state") && !line.contains("playfield"));
    }

    #[test]
    fn reports_the_first_differing_key() {
        let ram = ram_in_play();
        let a = TraceFrame::from_ram(9, &ram);
        assert_eq!(a.first_difference(&a), None);

        let mut ram2 = ram;
        ram2[0x45] = 2; // fall_timer
        ram2[0x53] = 0; // score, later in key order
        let d = a.first_difference(&TraceFrame::from_ram(9, &ram2)).unwrap();
        assert_eq!(d.key, "fall_timer");
        assert_eq!(d.to_string(), "frame 9: `fall_timer` differs: 1 vs 2");

        let mut ram3 = ram;
        ram3[0x400 + 23] = 0x7B;
        let d = a.first_difference(&TraceFrame::from_ram(9, &ram3)).unwrap();
        assert_eq!(d.key, "playfield");
        assert_eq!(d.cell, Some(23));
        assert_eq!(
            d.to_string(),
            "frame 9: `playfield` differs at row 2 column 3 ($0417): ef vs 7b"
        );

        let mut ram4 = ram;
        ram4[0xC0] = 5;
        let d = a.first_difference(&TraceFrame::from_ram(9, &ram4)).unwrap();
        assert_eq!(d.key, "game_mode");
        let mut b = TraceFrame::from_ram(9, &ram4);
        b.game_mode = 4; // same mode, but no gameplay keys
        let d = a.first_difference(&b).unwrap();
        assert_eq!(d.key, "play_state");
        assert_eq!(
            d.to_string(),
            "frame 9: `play_state` differs: 1 vs (absent)"
        );
    }
}
