//! A request's fields, read one by one with messages a player understands.
//!
//! Requests arrive as a URL query (the WebSocket views) or a JSON object (Analyse, Minijong).
//! Instead of letting a typed deserializer answer "invalid value: integer `-3`, expected u8 at
//! line 1 column 286", each field is read here with its label and range, and a bad one is
//! refused with [`ApiError::field`]: `{"error": "Start level must be a whole number from 0 to
//! 19, not -3", "field": "level"}`, which the page shows beside the field.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde_json::{Map, Value};

use crate::ApiError;

/// The fields of one request, by name.
#[derive(Clone, Debug, Default)]
pub struct Fields(pub Map<String, Value>);

/// Shortens what the user typed for a message (a field may hold anything).
fn shown(value: &Value) -> String {
    let short = |text: &str| {
        let mut s: String = text.chars().take(24).collect();
        if s.len() < text.len() {
            s.push('…');
        }
        s
    };
    match value {
        Value::String(s) if s.trim().is_empty() => "empty".to_owned(),
        Value::String(s) => format!("{:?}", short(s.trim())),
        other => short(&other.to_string()),
    }
}

impl Fields {
    /// The fields of a URL query (`level=18&seed=1`).
    #[must_use]
    pub fn from_query(query: HashMap<String, String>) -> Self {
        Fields(
            query
                .into_iter()
                .map(|(k, v)| (k, Value::String(v)))
                .collect(),
        )
    }

    /// The fields of a JSON object.
    ///
    /// # Errors
    /// When `bytes` is not a JSON object.
    pub fn from_json(bytes: &[u8]) -> Result<Self, ApiError> {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(map)) => Ok(Fields(map)),
            Ok(_) => Err(ApiError::bad_request(
                "the request must be a JSON object of fields",
            )),
            Err(e) => Err(ApiError::bad_request(format!(
                "the request is not valid JSON ({e})"
            ))),
        }
    }

    /// The raw value of `name`, absent when missing or `null`.
    fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    /// A whole number in `range`, or `default` when the field is missing.
    ///
    /// # Errors
    /// Naming the field by `label` and its range, when it is empty, not a whole number or out of
    /// range (or missing without a default).
    pub fn integer(
        &self,
        name: &'static str,
        label: &str,
        range: RangeInclusive<u64>,
        default: Option<u64>,
    ) -> Result<u64, ApiError> {
        let (lo, hi) = (*range.start(), *range.end());
        let expected = if hi == u64::MAX {
            format!("{label} must be a whole number from {lo} up")
        } else {
            format!("{label} must be a whole number from {lo} to {hi}")
        };
        let Some(value) = self.get(name) else {
            return default
                .ok_or_else(|| ApiError::field(name, format!("{expected}; it is missing")));
        };
        let parsed = match value {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        match parsed {
            Some(n) if range.contains(&n) => Ok(n),
            _ => Err(ApiError::field(
                name,
                format!("{expected}, not {}", shown(value)),
            )),
        }
    }

    /// A whole number in `range` that fits a `u8`.
    ///
    /// # Errors
    /// As [`Fields::integer`].
    pub fn byte(
        &self,
        name: &'static str,
        label: &str,
        range: RangeInclusive<u8>,
        default: Option<u8>,
    ) -> Result<u8, ApiError> {
        let n = self.integer(
            name,
            label,
            u64::from(*range.start())..=u64::from(*range.end()),
            default.map(u64::from),
        )?;
        Ok(u8::try_from(n).unwrap_or(u8::MAX))
    }

    /// A number (fractions allowed) in `range`, or `default` when missing.
    ///
    /// # Errors
    /// Naming the field and its range.
    pub fn number(
        &self,
        name: &'static str,
        label: &str,
        range: RangeInclusive<f64>,
        default: f64,
    ) -> Result<f64, ApiError> {
        let Some(value) = self.get(name) else {
            return Ok(default);
        };
        let parsed = match value {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        };
        match parsed {
            Some(x) if range.contains(&x) => Ok(x),
            _ => Err(ApiError::field(
                name,
                format!(
                    "{label} must be a number from {} to {}, not {}",
                    range.start(),
                    range.end(),
                    shown(value)
                ),
            )),
        }
    }

    /// A yes/no field (`true`/`false`, `1`/`0`, `on`/`off`), or `default` when missing.
    ///
    /// # Errors
    /// Naming the field.
    pub fn flag(&self, name: &'static str, label: &str, default: bool) -> Result<bool, ApiError> {
        let Some(value) = self.get(name) else {
            return Ok(default);
        };
        match value {
            Value::Bool(b) => Ok(*b),
            Value::String(s) => match s.trim() {
                "true" | "1" | "on" | "yes" => Ok(true),
                "false" | "0" | "off" | "no" => Ok(false),
                _ => Err(ApiError::field(
                    name,
                    format!("{label} must be on or off, not {}", shown(value)),
                )),
            },
            _ => Err(ApiError::field(
                name,
                format!("{label} must be on or off, not {}", shown(value)),
            )),
        }
    }

    /// A text field, or `default` when missing.
    ///
    /// # Errors
    /// When the field is not text.
    pub fn text(&self, name: &'static str, label: &str, default: &str) -> Result<String, ApiError> {
        match self.get(name) {
            None => Ok(default.to_owned()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(Value::Number(n)) => Ok(n.to_string()),
            Some(other) => Err(ApiError::field(
                name,
                format!("{label} must be text, not {}", shown(other)),
            )),
        }
    }

    /// A list field (JSON array), empty when missing.
    ///
    /// # Errors
    /// When the field is not a list.
    pub fn list(&self, name: &'static str, label: &str) -> Result<Vec<Value>, ApiError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items.clone()),
            Some(other) => Err(ApiError::field(
                name,
                format!("{label} must be a list, not {}", shown(other)),
            )),
        }
    }
}

/// The query's fields (never refused: a malformed query reads as no fields).
impl<S: Send + Sync> FromRequestParts<S> for Fields {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        let map: HashMap<String, String> = url_decode_pairs(query);
        Ok(Fields::from_query(map))
    }
}

/// A JSON body's fields.
#[derive(Clone, Debug, Default)]
pub struct JsonFields(pub Fields);

impl<S: Send + Sync> FromRequest<S> for JsonFields {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|e| ApiError::from_body_rejection(&e))?;
        Fields::from_json(&bytes).map(JsonFields)
    }
}

/// `a=1&b=x%20y` as pairs (the last of a repeated key wins; bad escapes are kept as typed).
fn url_decode_pairs(query: &str) -> HashMap<String, String> {
    fn decode(s: &str) -> String {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    let hex = |c: u8| (c as char).to_digit(16);
                    match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                        (Some(h), Some(l)) => {
                            out.push((h * 16 + l) as u8);
                            i += 2;
                        }
                        _ => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_out_of_range_name_the_field_and_the_range() {
        let f = Fields::from_query(url_decode_pairs("level=-3&seed=&speed=2&das=maybe"));
        let e = f
            .byte("level", "Start level", 0..=19, Some(18))
            .unwrap_err();
        assert_eq!(
            e.message,
            "Start level must be a whole number from 0 to 19, not \"-3\""
        );
        assert_eq!(e.field, Some("level"));
        let e = f
            .integer("seed", "Seed", 0..=u64::MAX, Some(1))
            .unwrap_err();
        assert_eq!(
            e.message,
            "Seed must be a whole number from 0 up, not empty"
        );
        assert_eq!(f.number("speed", "Speed", 0.5..=4.0, 1.0).unwrap(), 2.0);
        assert!(f.flag("das", "DAS", true).is_err());
        assert_eq!(f.byte("height", "Height", 0..=5, Some(0)).unwrap(), 0);
    }

    #[test]
    fn queries_are_percent_decoded() {
        let q = url_decode_pairs("input=X%2E%2E&name=a+b&bad=%zz&end=%4");
        assert_eq!(q["input"], "X..");
        assert_eq!(q["name"], "a b");
        assert_eq!(q["bad"], "%zz");
        assert_eq!(q["end"], "%4");
    }
}
