//! Bounds on the records handed to the engine: a record is input from the platform, and a
//! hostile or broken one (a megabyte-long name, an array nested ten thousand deep) must end in a
//! clear error, not in a stack overflow or an out-of-memory kill.

use syncdef_transform::Value;

use crate::error::EngineError;

/// The largest record the engine accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLimits {
    /// Nesting of objects and arrays. Default 64 (a platform invoice is 4 deep).
    pub max_depth: usize,
    /// Values (objects, arrays, scalars) in the record. Default 100,000.
    pub max_values: usize,
    /// Bytes of strings and keys, summed. Default 8 MiB.
    pub max_text_bytes: usize,
}

impl Default for RecordLimits {
    fn default() -> Self {
        RecordLimits {
            max_depth: 64,
            max_values: 100_000,
            max_text_bytes: 8 << 20,
        }
    }
}

impl RecordLimits {
    /// Checks `record`, walking it without recursion (so the check itself cannot overflow the
    /// stack) and stopping at the first limit passed.
    ///
    /// # Errors
    /// A configuration error naming the limit and how to raise it.
    pub fn check(&self, record: &Value) -> Result<(), EngineError> {
        // Room for a platform record's usual breadth without growing.
        let mut stack: Vec<(&Value, usize)> = Vec::with_capacity(32);
        stack.push((record, 1));
        let (mut values, mut text) = (0usize, 0usize);
        while let Some((value, depth)) = stack.pop() {
            values += 1;
            if depth > self.max_depth {
                return Err(too_big(&format!(
                    "is nested deeper than {} levels",
                    self.max_depth
                )));
            }
            if values > self.max_values {
                return Err(too_big(&format!(
                    "has more than {} values",
                    self.max_values
                )));
            }
            if let Some(s) = value.as_str() {
                text += s.len();
            } else if let Some(items) = value.as_array() {
                stack.extend(items.iter().map(|v| (v, depth + 1)));
            } else if let Some(map) = value.as_object() {
                for (k, v) in map {
                    text += k.len();
                    stack.push((v, depth + 1));
                }
            }
            if text > self.max_text_bytes {
                return Err(too_big(&format!(
                    "holds more than {} bytes of text",
                    self.max_text_bytes
                )));
            }
        }
        Ok(())
    }
}

fn too_big(what: &str) -> EngineError {
    EngineError::configuration(format!(
        "the record {what}; it is refused before any request. If it is genuine, raise the limit with Engine::with_record_limits"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_wide_and_long_records_are_refused() {
        let limits = RecordLimits {
            max_depth: 3,
            max_values: 10,
            max_text_bytes: 16,
        };
        let ok = Value::from_json_str(r#"{"a": {"b": 1}}"#).unwrap();
        assert!(limits.check(&ok).is_ok());
        let deep = Value::from_json_str(r#"{"a": {"b": {"c": 1}}}"#).unwrap();
        assert!(limits.check(&deep).unwrap_err().message.contains("nested"));
        let wide = Value::from_json_str("[1,2,3,4,5,6,7,8,9,10,11]").unwrap();
        assert!(limits.check(&wide).unwrap_err().message.contains("values"));
        let long = Value::from_json_str(r#"{"a": "0123456789abcdefg"}"#).unwrap();
        assert!(limits.check(&long).unwrap_err().message.contains("bytes"));
        let long_key = Value::from_json_str(r#"{"0123456789abcdefg": 1}"#).unwrap();
        assert!(
            limits
                .check(&long_key)
                .unwrap_err()
                .message
                .contains("bytes")
        );
        let deep_array = Value::from_json_str("[[[1]]]").unwrap();
        assert!(
            limits
                .check(&deep_array)
                .unwrap_err()
                .message
                .contains("nested")
        );
        let at_the_limits =
            Value::from_json_str(r#"[[1, "0123456789abcdef"], 2, 3, 4, 5, 6, 7]"#).unwrap();
        assert!(limits.check(&at_the_limits).is_ok());
    }

    #[test]
    fn a_very_deep_record_does_not_overflow_the_check() {
        let mut v = Value::from(1);
        for _ in 0..200_000 {
            v = Value::array(vec![v]);
        }
        assert!(RecordLimits::default().check(&v).is_err());
        // Dropping a 200,000-deep value would recurse; leak it instead (test only).
        std::mem::forget(v);
    }
}
