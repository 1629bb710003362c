//! Checks on the JSON files players read (weights, positions, tuning checkpoints) that serde's
//! own parsing does not make.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

/// Checks that no object in `text` names a key twice. serde_json keeps the last of two equal
/// keys without a word, so a file edited by hand (a term set twice, the second copy forgotten)
/// would play with a value its reader never sees.
///
/// # Errors
/// serde_json's error (with its line and column) when `text` is not JSON or a key repeats.
pub fn check_unique_keys(text: &str) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    UniqueKeys::deserialize(&mut de)?;
    de.end()
}

/// Any JSON value, read only to check its objects' keys.
struct UniqueKeys;

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<UniqueKeys, D::Error> {
        d.deserialize_any(UniqueKeysVisitor)
    }
}

struct UniqueKeysVisitor;

impl<'de> Visitor<'de> for UniqueKeysVisitor {
    type Value = UniqueKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_i64<E>(self, _: i64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_u64<E>(self, _: u64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_f64<E>(self, _: f64) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_str<E>(self, _: &str) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_unit<E>(self) -> Result<UniqueKeys, E> {
        Ok(UniqueKeys)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<UniqueKeys, A::Error> {
        while seq.next_element::<UniqueKeys>()?.is_some() {}
        Ok(UniqueKeys)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("key {key:?} given twice")));
            }
            map.next_value::<UniqueKeys>()?;
        }
        Ok(UniqueKeys)
    }
}

#[cfg(test)]
mod tests {
    use super::check_unique_keys;

    #[test]
    fn a_key_given_twice_is_named_with_its_place() {
        assert!(check_unique_keys(r#"{"a": 1, "b": [{"a": 2}, {"c": null}], "d": "x"}"#).is_ok());
        let e = check_unique_keys("{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": 2}}")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("\"c\" given twice") && e.contains("line 2"),
            "{e}"
        );
        let e = check_unique_keys(r#"{"holes": 1, "holes": 1}"#).unwrap_err();
        assert!(e.to_string().contains("holes"), "{e}");
        assert!(check_unique_keys("{} x").is_err());
        assert!(check_unique_keys("").is_err());
    }
}
