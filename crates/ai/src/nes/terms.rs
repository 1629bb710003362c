//! One term of a placement's rating, for showing why a player ranks placements as it does.

use serde::Serialize;

/// A named contribution to a placement's value (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Term {
    /// What the term measures, as the evaluator's weights name it (`holes`, `bumpiness`, ...),
    /// or `preview` / `deeper` for what looking ahead changed.
    pub name: &'static str,
    /// Its contribution to the value.
    pub value: f64,
}
