//! What comb's JSON outputs share (the tournament's JSONL, `bestmove --json`, `analyze
//! --jsonl`): they are serde types written by serde_json, one object a line, and a number of
//! seconds or an average keeps a fixed number of decimals (`2.000`, `12.5`), as the files
//! have always been written.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// A number written with `N` decimals (`Fixed::<3>(2.0)` is `2.000`); read as any JSON number.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Fixed<const N: usize>(pub f64);

impl<const N: usize> Serialize for Fixed<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A raw value is written as it is: serde_json would write 2.0 for 2.000. JSON has no
        // NaN or infinity; they are null, as serde_json writes them.
        if !self.0.is_finite() {
            return serializer.serialize_none();
        }
        let text = format!("{:.*}", N, self.0);
        RawValue::from_string(text).map_err(serde::ser::Error::custom)?.serialize(serializer)
    }
}

impl<'de, const N: usize> Deserialize<'de> for Fixed<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f64::deserialize(deserializer).map(Fixed)
    }
}

/// `value` as one line of JSON (no line break). Only a type whose `Serialize` can fail (a map
/// with keys that are not strings) could make this panic, and comb writes none.
pub fn line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("comb's JSON types always serialize")
}

/// What serde_json says is wrong with one line of JSON, with the column, not the line (the
/// text was a single line): `expected value at column 9`.
pub fn error_in_line(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let what = text.rsplit_once(" at line ").map_or(text.as_str(), |(what, _)| what);
    match error.column() {
        0 => what.to_string(),
        column => format!("{what} at column {column}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_decimals_are_kept_and_read_back() {
        assert_eq!(line(&Fixed::<3>(2.0)), "2.000");
        assert_eq!(line(&Fixed::<1>(12.25)), "12.2");
        assert_eq!(line(&[Fixed::<3>(0.0005), Fixed::<3>(f64::NAN)]), "[0.001,null]");
        assert_eq!(serde_json::from_str::<Fixed<3>>("130.287").unwrap(), Fixed(130.287));
        assert_eq!(line(&serde_json::from_str::<Fixed<3>>("130.287").unwrap()), "130.287");
    }

    #[test]
    fn errors_name_the_column() {
        let error = serde_json::from_str::<Vec<u32>>("[1, x]").unwrap_err();
        assert_eq!(error_in_line(&error), "expected value at column 5");
        let error = serde_json::from_str::<Vec<u32>>("[1,").unwrap_err();
        assert_eq!(error_in_line(&error), "EOF while parsing a value at column 3");
    }
}
