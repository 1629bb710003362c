//! Property tests of the FCEUX movie parser (`playfield_nes::fm2`): no text makes it panic, and
//! written movies read back unchanged. Named like the command line's parser tests, so that CI's
//! longer fuzzing round (filtered on `parsers_proptest`) runs both.

use playfield_nes::Buttons;
use playfield_nes::fm2::{Fm2Error, Movie};
use proptest::prelude::*;

const HEADER: &str = "version 3\nemuVersion 22020\nromFilename Tetris\n\
    romChecksum base64:Ww5XFVjIx5aTe5avRpVhxg==\nguid 00000000-0000-0000-0000-000000000000\n\
    port0 1\nport1 0\nport2 0\n";

/// Lines that look like movie lines, so the parser's later stages get exercised too.
fn fm2_like_line() -> impl Strategy<Value = String> {
    prop_oneof![
        "[|.RLDUTSBA 0-9]{0,24}",
        "\\|[0-9]{0,3}\\|[.RLDUTSBA ]{6,10}\\|[.RLDUTSBA]{0,9}\\|\\|",
        "[a-zA-Z0-9]{1,12} [ -~]{0,20}",
        any::<String>(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let _ = Movie::parse(&text);
    }

    #[test]
    fn arbitrary_lines_after_a_header_never_panic(lines in prop::collection::vec(fm2_like_line(), 0..20)) {
        let text = format!("{HEADER}{}", lines.join("\n"));
        match Movie::parse(&text) {
            Ok(movie) => prop_assert!(movie.lines.len() <= lines.len()),
            Err(Fm2Error { line, .. }) => {
                prop_assert!(line >= 1 && line <= text.split('\n').count());
            }
        }
    }

    #[test]
    fn written_movies_read_back(bits in prop::collection::vec(any::<u8>(), 0..500)) {
        let movie = Movie::new(bits.iter().map(|&b| Buttons::from_bits_retain(b)));
        let back = Movie::parse(&movie.to_fm2()).unwrap();
        prop_assert_eq!(&back, &movie);
        prop_assert_eq!(back.buttons().map(|b| b.bits()).collect::<Vec<_>>(), bits);
    }
}
