//! Arguments of the native functions checked as the package's Python options are (`_check_int`
//! and `_check_bool` in `playfield/envs.py`): an int outside its range is a `ValueError` that
//! names the argument and the range, another type a `TypeError` that names the argument, where
//! PyO3's own conversions raise `OverflowError` or a `TypeError` naming neither. Each function
//! here reads one argument, for `#[pyo3(from_py_with = ...)]`.

use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::error::ArgError;

/// The longest reaction time of the input model, in frames: `NesOptions.reaction`'s bound.
pub const MAX_REACTION: u32 = 10_000;

/// The error of an argument `name` that is not `want`.
fn wrong_type(ob: &Bound<'_, PyAny>, name: &'static str, want: &'static str) -> PyErr {
    let kind = ob
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string());
    let repr = ob.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string());
    ArgError::WrongType {
        name,
        want,
        kind,
        repr,
    }
    .into()
}

/// `ob` as an int `name` in `low..=high` (a bool is not one, as in `_check_int`).
fn int_in<T: TryFrom<i128>>(
    ob: &Bound<'_, PyAny>,
    name: &'static str,
    low: i128,
    high: i128,
    want: &'static str,
) -> PyResult<T> {
    if ob.is_instance_of::<PyBool>() {
        return Err(wrong_type(ob, name, want));
    }
    let value = match ob.extract::<i128>() {
        Ok(v) => Some(v),
        // Beyond 128 bits: outside every range here.
        Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => None,
        Err(_) => return Err(wrong_type(ob, name, want)),
    };
    match value
        .filter(|v| (low..=high).contains(v))
        .and_then(|v| T::try_from(v).ok())
    {
        Some(v) => Ok(v),
        None => Err(ArgError::OutOfRange {
            name,
            low,
            high,
            got: ob.str()?.to_string(),
        }
        .into()),
    }
}

/// `ob` as True or False (or a numpy bool, as in `_check_bool`), never an int.
fn bool_named(ob: &Bound<'_, PyAny>, name: &'static str) -> PyResult<bool> {
    ob.extract::<bool>()
        .map_err(|_| wrong_type(ob, name, "True or False"))
}

/// Functions reading an int argument `name` in a range: `fn f(ob) -> PyResult<T>`, or after
/// `or None:` `fn f(ob) -> PyResult<Option<T>>`, taking None too.
macro_rules! int_args {
    (or None: $($f:ident($name:literal): $t:ty = $low:expr, $high:expr;)*) => {$(
        #[doc = concat!("Reads the argument `", $name, "` (an int in its range, or None).")]
        pub fn $f(ob: &Bound<'_, PyAny>) -> PyResult<Option<$t>> {
            if ob.is_none() {
                return Ok(None);
            }
            int_in(ob, $name, i128::from($low), i128::from($high), "an int or None").map(Some)
        }
    )*};
    ($($f:ident($name:literal): $t:ty = $low:expr, $high:expr;)*) => {$(
        #[doc = concat!("Reads the argument `", $name, "` (an int in its range).")]
        pub fn $f(ob: &Bound<'_, PyAny>) -> PyResult<$t> {
            int_in(ob, $name, i128::from($low), i128::from($high), "an int")
        }
    )*};
}

int_args! {
    reaction("reaction"): u32 = 0u32, MAX_REACTION;
    buttons("buttons"): u8 = 0u8, u8::MAX;
    frame("frame"): u32 = 0u32, u32::MAX;
    any_level("level"): u8 = 0u8, u8::MAX;
    lookahead("lookahead"): u8 = 1u8, 2u8;
    run_seed("run_seed"): u64 = 0u64, u64::MAX;
    seed("seed"): u64 = 0u64, u64::MAX;
    index("index"): u32 = 0u32, u32::MAX;
    start_level("level"): u8 = 0u8, 19u8;
    game_type("game_type"): u8 = 0u8, 1u8;
    height("height"): u8 = 0u8, 5u8;
    music("music"): u8 = 0u8, 3u8;
}

int_args! {
    or None:
    line_cap("line_cap"): u32 = 0u32, u32::MAX;
    max_lines("max_lines"): u32 = 1u32, u32::MAX;
    max_frames("max_frames"): u64 = 0u64, u64::MAX;
}

/// Functions reading a bool argument: `fn name(ob) -> PyResult<bool>`.
macro_rules! bool_args {
    ($($f:ident),*) => {$(
        #[doc = concat!("Reads the argument `", stringify!($f), "` (True or False).")]
        pub fn $f(ob: &Bound<'_, PyAny>) -> PyResult<bool> {
            bool_named(ob, stringify!($f))
        }
    )*};
}

bool_args!(das, soft_drop, pal, text, next_known);
