//! FCEUX `.fm2` movies: the text format FCEUX records and plays.
//!
//! A movie is a header of `key value` lines (`version 3` first) followed by one input line per
//! frame, `|cmd|RLDUTSBA|port1|port2|`. Only power-on movies with a standard gamepad in port 0 are
//! supported: a `savestate` key (a movie that starts from a saved state), a binary movie or a Four
//! Score is rejected with an error that says so. Frame `F` of a movie is the state after `F` input
//! lines; the game does not read the first line's buttons.

use crate::Buttons;
use std::fmt;

/// FCEUX's `romChecksum` of Tetris (USA): base64 of the MD5 of its PRG+CHR data.
pub const TETRIS_ROM_CHECKSUM: &str = "base64:Ww5XFVjIx5aTe5avRpVhxg==";

/// The header keys FCEUX requires before the first input line.
pub const REQUIRED_KEYS: [&str; 7] = [
    "emuVersion",
    "romFilename",
    "romChecksum",
    "guid",
    "port0",
    "port1",
    "port2",
];

/// The `cmd` field of an input line: commands FCEUX applies before emulating that frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Command(pub u8);

impl Command {
    /// No command.
    pub const NONE: Command = Command(0);
    /// Bit 1: soft reset (the console's Reset button).
    pub const SOFT_RESET: Command = Command(1);
    /// Bit 2: power cycle.
    pub const POWER: Command = Command(2);

    /// True when the soft-reset bit is set.
    #[must_use]
    pub const fn soft_reset(self) -> bool {
        self.0 & Self::SOFT_RESET.0 != 0
    }

    /// True when the power bit is set.
    #[must_use]
    pub const fn power(self) -> bool {
        self.0 & Self::POWER.0 != 0
    }
}

/// One input line: the command and the buttons of both gamepads for one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InputLine {
    /// Reset or power command applied before the frame.
    pub command: Command,
    /// Player 1's gamepad (port 0), the one the game reads.
    pub buttons: Buttons,
    /// Player 2's gamepad (port 1); always empty when the header has `port1 0`.
    pub port1: Buttons,
}

impl InputLine {
    /// A line with player 1's buttons and nothing else.
    #[must_use]
    pub const fn new(buttons: Buttons) -> InputLine {
        InputLine {
            command: Command::NONE,
            buttons,
            port1: Buttons::NONE,
        }
    }
}

/// A parsed `.fm2` movie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Movie {
    /// Header lines in file order, `(key, value)`; keys such as `comment` may repeat.
    pub header: Vec<(String, String)>,
    /// One entry per input line; entry `k` is input line `k` (the game never reads line 0).
    pub lines: Vec<InputLine>,
}

/// What is wrong with a movie file; [`Fm2Error`] adds the line number.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fm2ErrorKind {
    /// The file is empty.
    Empty,
    /// The first line is not `version 3`.
    NotVersion3 {
        /// The first line as found.
        found: String,
    },
    /// A header line that is not `key value` with an alphanumeric key.
    BadHeaderLine {
        /// The line as found.
        found: String,
    },
    /// A header key given a second time (only `comment` and `subtitle` may repeat).
    RepeatedKey {
        /// The key.
        key: String,
        /// The line that gave it first.
        first_line: usize,
    },
    /// A header line after the first input line.
    HeaderAfterInput {
        /// The key found.
        key: String,
    },
    /// A required header key is missing.
    MissingKey {
        /// The key.
        key: &'static str,
    },
    /// A header key whose value cannot be a number.
    BadNumber {
        /// The key.
        key: String,
        /// The value found.
        value: String,
    },
    /// A header flag whose value is not 0 or 1.
    BadFlag {
        /// The key.
        key: String,
        /// The value found.
        value: String,
    },
    /// The movie was recorded with another ROM: its `romChecksum` is not Tetris (USA)'s.
    OtherGame {
        /// The movie's `romFilename`.
        rom_filename: String,
        /// The movie's `romChecksum`.
        rom_checksum: String,
    },
    /// A `savestate` key: the movie starts from a saved state, not from power-on.
    Savestate,
    /// A binary movie (`binary 1`), which this reader does not decode.
    Binary,
    /// `fourscore 1`: four gamepads instead of two ports.
    FourScore,
    /// A port holds a device other than a gamepad (port 0) or nothing/gamepad (port 1, port 2).
    UnsupportedPort {
        /// 0, 1 or 2.
        port: u8,
        /// The device number found.
        device: String,
    },
    /// An input line that is not `|cmd|pad|pad|ext|`.
    BadInputLine {
        /// What is wrong with its shape.
        what: &'static str,
    },
    /// The `cmd` field is not a number in 0..=255.
    BadCommand {
        /// The field as found.
        found: String,
    },
    /// The `cmd` field holds a command other than soft reset (1) and power (2).
    UnsupportedCommand {
        /// The command value.
        command: u8,
    },
    /// A gamepad field of the wrong length.
    BadPadLength {
        /// Which port.
        port: u8,
        /// Its length in characters.
        len: usize,
        /// The length its header entry calls for.
        expected: usize,
    },
    /// A character in a gamepad field that is neither released (`.` or space) nor the letter of
    /// its position in `RLDUTSBA`.
    BadButton {
        /// 1-based column in the line.
        column: usize,
        /// The character found.
        found: char,
        /// The letter that belongs in that position.
        expected: char,
    },
}

impl fmt::Display for Fm2ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fm2ErrorKind::Empty => write!(f, "the file is empty (an .fm2 starts with `version 3`)"),
            Fm2ErrorKind::NotVersion3 { found } => {
                write!(f, "expected `version 3` as the first line, found {found:?}")
            }
            Fm2ErrorKind::BadHeaderLine { found } => {
                write!(f, "expected a `key value` header line, found {found:?}")
            }
            Fm2ErrorKind::RepeatedKey { key, first_line } => write!(
                f,
                "header key `{key}` given again (first on line {first_line}): a movie says each \
                 once"
            ),
            Fm2ErrorKind::HeaderAfterInput { key } => {
                write!(f, "header key `{key}` after the first input line")
            }
            Fm2ErrorKind::MissingKey { key } => {
                write!(
                    f,
                    "the header has no `{key}` (required before the first input line)"
                )
            }
            Fm2ErrorKind::BadNumber { key, value } => {
                write!(f, "`{key}` must be a number, found {value:?}")
            }
            Fm2ErrorKind::BadFlag { key, value } => {
                write!(f, "`{key}` must be 0 or 1, found {value:?}")
            }
            Fm2ErrorKind::OtherGame {
                rom_filename,
                rom_checksum,
            } => write!(
                f,
                "the movie was recorded for another game: romFilename {rom_filename:?}, \
                 romChecksum {rom_checksum:?} (Tetris (USA) is {TETRIS_ROM_CHECKSUM})"
            ),
            Fm2ErrorKind::Savestate => write!(
                f,
                "`savestate`: the movie starts from a saved state; only power-on movies are supported"
            ),
            Fm2ErrorKind::Binary => write!(f, "`binary 1`: binary movies are not supported"),
            Fm2ErrorKind::FourScore => {
                write!(f, "`fourscore 1`: Four Score movies are not supported")
            }
            Fm2ErrorKind::UnsupportedPort { port, device } => write!(
                f,
                "`port{port} {device}`: only a gamepad (1) in port 0 and none (0) or a gamepad (1) \
                 in port 1 are supported, and nothing (0) in port 2"
            ),
            Fm2ErrorKind::BadInputLine { what } => {
                write!(
                    f,
                    "malformed input line `|cmd|RLDUTSBA|port1|port2|`: {what}"
                )
            }
            Fm2ErrorKind::BadCommand { found } => {
                write!(
                    f,
                    "the command field must be a number 0-255, found {found:?}"
                )
            }
            Fm2ErrorKind::UnsupportedCommand { command } => write!(
                f,
                "command {command}: only soft reset (1) and power (2) are supported"
            ),
            Fm2ErrorKind::BadPadLength {
                port,
                len,
                expected,
            } => write!(
                f,
                "the port {port} field has {len} characters, expected {expected}"
            ),
            Fm2ErrorKind::BadButton {
                column,
                found,
                expected,
            } => write!(
                f,
                "column {column}: {found:?} where `{expected}`, `.` or a space belongs"
            ),
        }
    }
}

/// An error reading a movie: the 1-based line number and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fm2Error {
    /// 1-based line number in the file.
    pub line: usize,
    /// What is wrong.
    pub kind: Fm2ErrorKind,
}

impl fmt::Display for Fm2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fm2 line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for Fm2Error {}

fn err(line: usize, kind: Fm2ErrorKind) -> Fm2Error {
    Fm2Error { line, kind }
}

impl Movie {
    /// A power-on movie for Tetris (USA) with player 1's buttons, one entry per input line, and a
    /// header FCEUX accepts. The guid is derived from the input, so equal inputs give equal files.
    #[must_use]
    pub fn new(buttons: impl IntoIterator<Item = Buttons>) -> Movie {
        let lines: Vec<InputLine> = buttons.into_iter().map(InputLine::new).collect();
        let guid = guid_for(&lines);
        let header = [
            ("version", "3"),
            ("emuVersion", "22020"),
            ("rerecordCount", "0"),
            ("palFlag", "0"),
            ("romFilename", "Tetris"),
            ("romChecksum", TETRIS_ROM_CHECKSUM),
            ("guid", guid.as_str()),
            ("fourscore", "0"),
            ("microphone", "0"),
            ("port0", "1"),
            ("port1", "0"),
            ("port2", "0"),
            ("FDS", "0"),
            ("NewPPU", "0"),
        ]
        .iter()
        .map(|&(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        Movie { header, lines }
    }

    /// Parses the text of an `.fm2` file.
    ///
    /// # Errors
    /// The first problem found, with its 1-based line number.
    pub fn parse(text: &str) -> Result<Movie, Fm2Error> {
        let mut header: Vec<(String, String)> = Vec::new();
        // Where each key was given: only the first value of a key is read, so a second one
        // (`romChecksum` after the right one) would go unchecked.
        let mut key_lines: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        let mut lines = Vec::new();
        let mut port1_gamepad = false;
        let mut seen_version = false;
        let mut header_done_at = 0;
        let mut line_no = 0;
        if text.trim().is_empty() {
            return Err(err(1, Fm2ErrorKind::Empty));
        }
        for raw in text.split('\n') {
            line_no += 1;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            if !seen_version {
                if line.split_whitespace().collect::<Vec<_>>() != ["version", "3"] {
                    return Err(err(
                        line_no,
                        Fm2ErrorKind::NotVersion3 {
                            found: truncate(line),
                        },
                    ));
                }
                seen_version = true;
                header.push(("version".to_owned(), "3".to_owned()));
                key_lines.insert("version".to_owned(), line_no);
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            if line.starts_with('|') {
                if header_done_at == 0 {
                    header_done_at = line_no;
                    port1_gamepad = check_header(&header, line_no)?;
                }
                lines.push(parse_input_line(line, line_no, port1_gamepad)?);
                continue;
            }
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            if key.is_empty() || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(err(
                    line_no,
                    Fm2ErrorKind::BadHeaderLine {
                        found: truncate(line),
                    },
                ));
            }
            if header_done_at != 0 {
                return Err(err(
                    line_no,
                    Fm2ErrorKind::HeaderAfterInput { key: truncate(key) },
                ));
            }
            if !matches!(key, "comment" | "subtitle") {
                if let Some(&first_line) = key_lines.get(key) {
                    return Err(err(
                        line_no,
                        Fm2ErrorKind::RepeatedKey {
                            key: truncate(key),
                            first_line,
                        },
                    ));
                }
                key_lines.insert(key.to_owned(), line_no);
            }
            header.push((key.to_owned(), value.to_owned()));
            if key == "savestate" {
                return Err(err(line_no, Fm2ErrorKind::Savestate));
            }
        }
        if header_done_at == 0 {
            // A movie with no input lines is legal (zero frames), but its header must still be.
            check_header(&header, line_no)?;
        }
        Ok(Movie { header, lines })
    }

    /// Checks that the movie was recorded with Tetris (USA): its `romChecksum` must be
    /// [`TETRIS_ROM_CHECKSUM`] (the `romFilename` is whatever the recorder's file was called, so
    /// it is only reported).
    ///
    /// # Errors
    /// [`Fm2ErrorKind::OtherGame`] at the `romChecksum` line.
    pub fn check_tetris(&self) -> Result<(), Fm2Error> {
        let checksum = self.get("romChecksum").unwrap_or("").trim();
        if checksum == TETRIS_ROM_CHECKSUM {
            return Ok(());
        }
        let line = self
            .header
            .iter()
            .position(|(k, _)| k == "romChecksum")
            .map_or(1, |i| i + 1);
        Err(err(
            line,
            Fm2ErrorKind::OtherGame {
                rom_filename: truncate(self.get("romFilename").unwrap_or("").trim()),
                rom_checksum: truncate(checksum),
            },
        ))
    }

    /// The value of the first header line with this key.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.header
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Player 1's buttons, one per input line.
    pub fn buttons(&self) -> impl Iterator<Item = Buttons> + '_ {
        self.lines.iter().map(|l| l.buttons)
    }

    /// True when the header says the movie was recorded on a PAL console.
    #[must_use]
    pub fn pal(&self) -> bool {
        self.get("palFlag").is_some_and(|v| v.trim() == "1")
    }

    /// The movie as `.fm2` text, header then one line per frame, each ending in `\n`.
    #[must_use]
    pub fn to_fm2(&self) -> String {
        let mut out = String::with_capacity(400 + self.lines.len() * 16);
        for (key, value) in &self.header {
            out.push_str(key);
            out.push(' ');
            out.push_str(value);
            out.push('\n');
        }
        let port1_gamepad = self.get("port1").is_some_and(|v| v.trim() == "1");
        for line in &self.lines {
            out.push('|');
            out.push_str(&line.command.0.to_string());
            out.push('|');
            push_pad(&mut out, line.buttons);
            out.push('|');
            if port1_gamepad {
                push_pad(&mut out, line.port1);
            }
            out.push_str("||\n");
        }
        out
    }
}

/// Writes a gamepad field: the letter when pressed, `.` when released.
fn push_pad(out: &mut String, buttons: Buttons) {
    for (i, &letter) in Buttons::FM2_LETTERS.iter().enumerate() {
        out.push(if buttons.bits() & (1 << i) != 0 {
            char::from(letter)
        } else {
            '.'
        });
    }
}

/// Checks the header once it is complete; returns whether port 1 holds a gamepad.
fn check_header(header: &[(String, String)], line_no: usize) -> Result<bool, Fm2Error> {
    let get = |key: &str| header.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim());
    for key in REQUIRED_KEYS {
        if get(key).is_none() {
            return Err(err(line_no, Fm2ErrorKind::MissingKey { key }));
        }
    }
    let line_of = |key: &str| {
        header
            .iter()
            .position(|(k, _)| k == key)
            .map_or(line_no, |i| i + 1)
    };
    let number = |key: &str| -> Result<Option<u32>, Fm2Error> {
        match get(key) {
            None => Ok(None),
            Some(v) => v.parse::<u32>().map(Some).map_err(|_| {
                err(
                    line_of(key),
                    Fm2ErrorKind::BadNumber {
                        key: key.to_owned(),
                        value: truncate(v),
                    },
                )
            }),
        }
    };
    // FCEUX writes these as numbers; anything else is a damaged or hand-made header.
    for key in ["emuVersion", "rerecordCount", "length"] {
        number(key)?;
    }
    for key in [
        "palFlag",
        "fourscore",
        "microphone",
        "binary",
        "FDS",
        "NewPPU",
    ] {
        if let Some(v) = get(key)
            && v != "0"
            && v != "1"
        {
            return Err(err(
                line_of(key),
                Fm2ErrorKind::BadFlag {
                    key: key.to_owned(),
                    value: truncate(v),
                },
            ));
        }
    }
    if number("binary")?.is_some_and(|v| v != 0) {
        return Err(err(line_of("binary"), Fm2ErrorKind::Binary));
    }
    if number("fourscore")?.is_some_and(|v| v != 0) {
        return Err(err(line_of("fourscore"), Fm2ErrorKind::FourScore));
    }
    let port = |port: u8, allowed: &[u32]| -> Result<u32, Fm2Error> {
        let key = format!("port{port}");
        let device = number(&key)?.unwrap_or(0);
        if allowed.contains(&device) {
            Ok(device)
        } else {
            Err(err(
                line_of(&key),
                Fm2ErrorKind::UnsupportedPort {
                    port,
                    device: device.to_string(),
                },
            ))
        }
    };
    port(0, &[1])?;
    let port1 = port(1, &[0, 1])?;
    port(2, &[0])?;
    Ok(port1 == 1)
}

/// Parses `|cmd|RLDUTSBA|port1|port2|`.
fn parse_input_line(
    line: &str,
    line_no: usize,
    port1_gamepad: bool,
) -> Result<InputLine, Fm2Error> {
    let bad = |what| err(line_no, Fm2ErrorKind::BadInputLine { what });
    // Split on '|' keeping each field's starting column, for error messages.
    let mut fields = Vec::with_capacity(5);
    let mut start = 1;
    for (i, b) in line.bytes().enumerate().skip(1) {
        if b == b'|' {
            fields.push((start, &line[start..i]));
            start = i + 1;
        }
    }
    if fields.len() < 4 {
        return Err(bad("fewer than five `|` separators"));
    }
    if fields.len() > 4 {
        return Err(bad("more than five `|` separators"));
    }
    if !line[start..].trim().is_empty() {
        return Err(bad("text after the last `|`"));
    }
    if !fields[3].1.is_empty() {
        return Err(bad("port 2 is empty (`port2 0`) but its field is not"));
    }
    let (_, cmd) = fields[0];
    let command = if cmd.is_empty() {
        0
    } else {
        cmd.trim().parse::<u8>().map_err(|_| {
            err(
                line_no,
                Fm2ErrorKind::BadCommand {
                    found: truncate(cmd),
                },
            )
        })?
    };
    if command & !(Command::SOFT_RESET.0 | Command::POWER.0) != 0 {
        return Err(err(line_no, Fm2ErrorKind::UnsupportedCommand { command }));
    }
    let buttons = parse_pad(fields[1], 0, line_no)?;
    let port1 = if port1_gamepad {
        parse_pad(fields[2], 1, line_no)?
    } else if fields[2].1.is_empty() {
        Buttons::NONE
    } else {
        return Err(bad("port 1 is empty (`port1 0`) but its field is not"));
    };
    Ok(InputLine {
        command: Command(command),
        buttons,
        port1,
    })
}

/// Parses one 8-character `RLDUTSBA` field that starts at byte `start` of the line.
fn parse_pad((start, field): (usize, &str), port: u8, line_no: usize) -> Result<Buttons, Fm2Error> {
    let len = field.chars().count();
    if len != 8 {
        return Err(err(
            line_no,
            Fm2ErrorKind::BadPadLength {
                port,
                len,
                expected: 8,
            },
        ));
    }
    let mut bits = 0u8;
    for (i, c) in field.chars().enumerate() {
        let expected = char::from(Buttons::FM2_LETTERS[i]);
        if c == expected {
            bits |= 1 << i;
        } else if c != '.' && c != ' ' {
            return Err(err(
                line_no,
                Fm2ErrorKind::BadButton {
                    column: start + i + 1,
                    found: c,
                    expected,
                },
            ));
        }
    }
    Ok(Buttons::from_bits_retain(bits))
}

/// At most 60 characters of a line, for error messages about arbitrary input.
fn truncate(s: &str) -> String {
    s.chars().take(60).collect()
}

/// A guid in FCEUX's `8-4-4-4-12` hex form, from an FNV-1a hash of the input lines.
fn guid_for(lines: &[InputLine]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    for l in lines {
        mix(l.command.0);
        mix(l.buttons.bits());
        mix(l.port1.bits());
    }
    let a = h;
    let b = a.rotate_left(29).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ lines.len() as u64;
    format!(
        "{:08X}-{:04X}-{:04X}-{:04X}-{:012X}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "version 3\nemuVersion 22020\nrerecordCount 0\npalFlag 0\n\
        romFilename Tetris\nromChecksum base64:Ww5XFVjIx5aTe5avRpVhxg==\n\
        guid 452DE2C3-EF43-2FA9-77AC-0677FC51543B\nfourscore 0\nmicrophone 0\n\
        port0 1\nport1 0\nport2 0\n";

    fn parse_err(text: &str) -> Fm2Error {
        Movie::parse(text).expect_err("should not parse")
    }

    #[test]
    fn parses_header_and_lines() {
        let text = format!("{HEADER}|0|........|||\n|0|R......A|||\n|2|.L. T.B.|||\n");
        let m = Movie::parse(&text).unwrap();
        assert_eq!(m.get("romFilename"), Some("Tetris"));
        assert_eq!(m.get("romChecksum"), Some(TETRIS_ROM_CHECKSUM));
        assert_eq!(m.lines.len(), 3);
        assert_eq!(m.lines[0], InputLine::new(Buttons::NONE));
        assert_eq!(m.lines[1].buttons, Buttons::RIGHT | Buttons::A);
        assert_eq!(
            m.lines[2].buttons,
            Buttons::LEFT | Buttons::START | Buttons::B
        );
        assert!(m.lines[2].command.power());
        assert!(!m.lines[2].command.soft_reset());
        assert!(!m.pal());
    }

    #[test]
    fn every_letter_is_its_bit() {
        for (i, &letter) in Buttons::FM2_LETTERS.iter().enumerate() {
            let mut pad = *b"........";
            pad[i] = letter;
            let text = format!("{HEADER}|0|{}|||\n", std::str::from_utf8(&pad).unwrap());
            let m = Movie::parse(&text).unwrap();
            assert_eq!(m.lines[0].buttons, Buttons::from_bits_retain(1 << i));
        }
        assert_eq!(Buttons::FM2_LETTERS[4], b'T');
        assert_eq!(Buttons::from_bits_retain(1 << 4), Buttons::START);
    }

    #[test]
    fn crlf_and_blank_lines_are_accepted() {
        let text = format!("{HEADER}|0|..D.....|||\n\n").replace('\n', "\r\n");
        let m = Movie::parse(&text).unwrap();
        assert_eq!(m.lines.len(), 1);
        assert_eq!(m.lines[0].buttons, Buttons::DOWN);
    }

    #[test]
    fn round_trips_through_text() {
        let buttons: Vec<Buttons> = (0..=255u8).map(Buttons::from_bits_retain).collect();
        let m = Movie::new(buttons.iter().copied());
        let text = m.to_fm2();
        assert!(text.starts_with("version 3\n"));
        assert!(text.contains("\nromChecksum base64:Ww5XFVjIx5aTe5avRpVhxg==\n"));
        assert!(text.contains("\n|0|RLDUTSBA|||\n"));
        let back = Movie::parse(&text).unwrap();
        assert_eq!(back, m);
        assert_eq!(back.buttons().collect::<Vec<_>>(), buttons);
        assert_eq!(back.to_fm2(), text);
    }

    #[test]
    fn round_trips_port1_and_commands() {
        let text = HEADER.replace("port1 0", "port1 1")
            + "|1|R.......|.L......||\n|0|........|.......A||\n";
        let m = Movie::parse(&text).unwrap();
        assert!(m.lines[0].command.soft_reset());
        assert_eq!(m.lines[0].port1, Buttons::LEFT);
        assert_eq!(m.lines[1].port1, Buttons::A);
        assert_eq!(m.to_fm2(), text);
    }

    #[test]
    fn guid_has_fceux_shape_and_depends_on_input() {
        let a = Movie::new([Buttons::NONE; 3]);
        let b = Movie::new([Buttons::A; 3]);
        let g = a.get("guid").unwrap();
        let parts: Vec<usize> = g.split('-').map(str::len).collect();
        assert_eq!(parts, [8, 4, 4, 4, 12]);
        assert_ne!(g, b.get("guid").unwrap());
    }

    #[test]
    fn rejects_a_repeated_key_but_not_a_repeated_comment() {
        for (key, value, first) in [
            ("romChecksum", "base64:AAAA", 6),
            ("palFlag", "1", 4),
            ("version", "2", 1),
            ("port0", "0", 10),
        ] {
            let e = parse_err(&format!("{HEADER}{key} {value}\n|0|........|||\n"));
            assert_eq!(e.line, 13, "{key}");
            assert_eq!(
                e.kind,
                Fm2ErrorKind::RepeatedKey {
                    key: key.to_owned(),
                    first_line: first
                }
            );
            assert!(e.to_string().contains("given again"), "{e}");
        }
        let text =
            format!("{HEADER}comment a\ncomment b\nsubtitle 1 x\nsubtitle 2 y\n|0|........|||\n");
        assert!(Movie::parse(&text).is_ok());
    }

    #[test]
    fn rejects_savestate() {
        let e = parse_err(&format!("{HEADER}savestate base64:AAAA\n|0|........|||\n"));
        assert_eq!(e.line, 13);
        assert_eq!(e.kind, Fm2ErrorKind::Savestate);
        assert!(e.to_string().contains("power-on"), "{e}");
    }

    #[test]
    fn rejects_missing_keys_naming_them() {
        let e = parse_err(&format!(
            "{}|0|........|||\n",
            HEADER.replace("guid", "xguid")
        ));
        assert_eq!(e.kind, Fm2ErrorKind::MissingKey { key: "guid" });
        assert_eq!(e.line, 13);
        assert!(e.to_string().contains("`guid`"));
        let e = parse_err("version 3\n");
        assert_eq!(e.kind, Fm2ErrorKind::MissingKey { key: "emuVersion" });
    }

    #[test]
    fn rejects_bad_first_line() {
        assert!(matches!(parse_err("").kind, Fm2ErrorKind::Empty));
        let e = parse_err("version 2\n");
        assert_eq!(e.line, 1);
        assert!(matches!(e.kind, Fm2ErrorKind::NotVersion3 { .. }));
    }

    #[test]
    fn rejects_wrong_letter_with_its_column() {
        let e = parse_err(&format!("{HEADER}|0|........|||\n|0|..X.....|||\n"));
        assert_eq!(e.line, 14);
        assert_eq!(
            e.kind,
            Fm2ErrorKind::BadButton {
                column: 6,
                found: 'X',
                expected: 'D'
            }
        );
        assert_eq!(
            e.to_string(),
            "fm2 line 14: column 6: 'X' where `D`, `.` or a space belongs"
        );
        // A right letter in the wrong place is wrong too.
        let e = parse_err(&format!("{HEADER}|0|A.......|||\n"));
        assert!(matches!(
            e.kind,
            Fm2ErrorKind::BadButton { expected: 'R', .. }
        ));
    }

    #[test]
    fn rejects_malformed_header_values_at_their_line() {
        for (key, value, want) in [
            ("palFlag", "2", "must be 0 or 1"),
            ("emuVersion", "abc", "must be a number"),
            ("rerecordCount", "-1", "must be a number"),
            ("NewPPU", "yes", "must be 0 or 1"),
        ] {
            let text = HEADER.replace(&format!("\n{key} "), &format!("\n{key} {value}\nignored "));
            let text = if text == HEADER {
                format!("{HEADER}{key} {value}\n")
            } else {
                text
            };
            let e = parse_err(&text);
            assert!(e.to_string().contains(want), "{key}: {e}");
            let at = text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
            assert_eq!(e.line, at, "{key}: {e}");
        }
    }

    #[test]
    fn another_games_movie_is_named_as_such() {
        let ours = Movie::new([Buttons::NONE]);
        assert_eq!(ours.check_tetris(), Ok(()));
        let text = ours
            .to_fm2()
            .replace(TETRIS_ROM_CHECKSUM, "base64:AAAAAAAAAAAAAAAAAAAAAA==");
        let text = text.replace("romFilename Tetris", "romFilename Super Mario Bros.");
        let e = Movie::parse(&text).unwrap().check_tetris().unwrap_err();
        assert!(matches!(e.kind, Fm2ErrorKind::OtherGame { .. }));
        assert!(e.to_string().contains("Super Mario Bros."), "{e}");
        assert_eq!(e.line, 6);
    }

    #[test]
    fn rejects_malformed_input_lines() {
        for (line, want) in [
            ("|0|........||", "separators"),
            ("|0|.......|||", "7 characters"),
            ("|x|........|||", "command field"),
            ("|4|........|||", "command 4"),
            ("|0|........|R.......||", "port 1 is empty"),
            ("|0|........||||", "more than five"),
            ("|0|........|||junk", "after the last"),
            ("|0|........|||R.......|", "more than five"),
            ("|0|........||x|", "port 2 is empty"),
        ] {
            let e = parse_err(&format!("{HEADER}{line}\n"));
            assert_eq!(e.line, 13, "{line}");
            assert!(e.to_string().contains(want), "{line}: {e}");
        }
    }

    #[test]
    fn rejects_unsupported_setups() {
        let e = parse_err(&format!(
            "{}|0|........|||\n",
            HEADER.replace("port0 1", "port0 2")
        ));
        assert_eq!(e.line, 10);
        assert!(matches!(
            e.kind,
            Fm2ErrorKind::UnsupportedPort { port: 0, .. }
        ));
        let e = parse_err(&HEADER.replace("fourscore 0", "fourscore 1"));
        assert_eq!(e.kind, Fm2ErrorKind::FourScore);
        let e = parse_err(&format!("{HEADER}binary 1\n"));
        assert_eq!(e.kind, Fm2ErrorKind::Binary);
        let e = parse_err(&HEADER.replace("port2 0", "port2 x"));
        assert!(matches!(e.kind, Fm2ErrorKind::BadNumber { .. }));
    }

    #[test]
    fn rejects_header_after_input_and_garbage() {
        let e = parse_err(&format!("{HEADER}|0|........|||\ncomment late\n"));
        assert_eq!(e.line, 14);
        assert!(matches!(e.kind, Fm2ErrorKind::HeaderAfterInput { .. }));
        let e = parse_err(&format!("{HEADER}{{\"json\": 1}}\n"));
        assert!(matches!(e.kind, Fm2ErrorKind::BadHeaderLine { .. }));
    }

    /// A tiny xorshift so this dependency-free crate can still throw random text at the parser.
    #[test]
    fn random_text_never_panics() {
        let mut s: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let alphabet: Vec<char> = "|.RLDUTSBA 0123\n\r version3port12é\u{0}".chars().collect();
        for _ in 0..20_000 {
            let len = (next() % 200) as usize;
            let mut text = if next() % 2 == 0 {
                HEADER.to_owned()
            } else {
                String::new()
            };
            for _ in 0..len {
                text.push(alphabet[(next() % alphabet.len() as u64) as usize]);
            }
            let _ = Movie::parse(&text);
        }
    }
}
