//! What the text around a cursor is: the line before it, the `key:` it is the value of, the
//! key of the mapping above it. Read from the text itself, so that it works while the line
//! being typed does not parse.

/// The cursor's line, split for the features.
#[derive(Clone, Debug)]
pub struct Line<'t> {
    /// The text from the start of the line to the cursor.
    pub before: &'t str,
    /// Byte offset of the start of the line.
    pub start: usize,
    /// The key of a `key: value` (YAML or JSON) line, unquoted, when the cursor is in its value.
    pub key: Option<&'t str>,
    /// Byte offset where the value starts (after the key, the colon, spaces and an opening
    /// quote), when there is a key.
    pub value_start: Option<usize>,
}

impl<'t> Line<'t> {
    /// The line of `text` around byte `offset`.
    #[must_use]
    pub fn at(text: &'t str, offset: usize) -> Line<'t> {
        let start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let before = &text[start..offset];
        let (key, value_start) = match split_key(before) {
            Some((key, value_at)) => (Some(key), Some(start + value_at)),
            None => (None, None),
        };
        Line {
            before,
            start,
            key,
            value_start,
        }
    }

    /// The value typed so far (from its start to the cursor).
    #[must_use]
    pub fn value(&self) -> Option<&'t str> {
        self.value_start.map(|at| &self.before[at - self.start..])
    }
}

/// `(key, offset of the value)` of `key: value` in `before`, YAML (`- key:`, quoted keys) or
/// JSON (`"key": "value`), for the last member on the line.
fn split_key(before: &str) -> Option<(&str, usize)> {
    // The key starts after the last `{` or `,` of a flow mapping, or at the line's start.
    let member = before[last_member_start(before)..].trim_start();
    let member_trim = member.strip_prefix("- ").unwrap_or(member).trim_start();
    let key_at = before.len() - member_trim.len();
    let (key, rest_at) = if let q @ ('"' | '\'') = member_trim.chars().next()? {
        let close = member_trim[1..].find(q)? + 1;
        (&member_trim[1..close], key_at + close + 1)
    } else {
        let colon = member_trim
            .find(": ")
            .or_else(|| member_trim.ends_with(':').then(|| member_trim.len() - 1))?;
        (member_trim[..colon].trim_end(), key_at + colon)
    };
    let rest = &before[rest_at..];
    let after_colon = rest.trim_start().strip_prefix(':')?;
    let value = after_colon.trim_start();
    let value = value.strip_prefix(['"', '\'']).unwrap_or(value);
    Some((key, before.len() - value.len()))
}

/// Where the last member of the line starts: after the last `{` that opens a flow mapping (at
/// the start of a value, not inside a path such as `/customer/{Id}`) or a `,` inside one,
/// outside quotes.
fn last_member_start(line: &str) -> usize {
    let mut quote = None;
    let mut depth = 0usize;
    let mut at = 0;
    let mut previous = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '{') if matches!(previous, None | Some(':' | ',' | '[' | '{' | '-')) => {
                depth += 1;
                at = i + 1;
            }
            (None, '}') => depth = depth.saturating_sub(1),
            (None, ',') if depth > 0 => at = i + 1,
            _ => {}
        }
        if !c.is_whitespace() {
            previous = Some(c);
        }
    }
    at
}

/// The key of the YAML mapping that holds line `line_start`'s member: the nearest line above
/// indented less (a list item's `- ` counts as indentation).
#[must_use]
pub fn parent_key(text: &str, line_start: usize) -> Option<&str> {
    let indent = |line: &str| {
        let body = line.trim_start_matches([' ', '-']);
        line.len() - body.len()
    };
    let own = indent(text[line_start..].lines().next().unwrap_or(""));
    for line in text[..line_start].lines().rev() {
        let body = line.trim();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if indent(line) < own {
            let body = line.trim_start_matches([' ', '-']);
            let key = body.split(':').next()?.trim().trim_matches(['"', '\'']);
            return Some(key);
        }
    }
    None
}

/// The start of the run of characters `accept` takes that ends at `offset`.
#[must_use]
pub fn run_start(text: &str, offset: usize, accept: impl Fn(char) -> bool) -> usize {
    let mut at = offset;
    for (i, c) in text[..offset].char_indices().rev() {
        if !accept(c) {
            break;
        }
        at = i;
    }
    at
}

/// The end of the run of characters `accept` takes that starts at `offset`.
#[must_use]
pub fn run_end(text: &str, offset: usize, accept: impl Fn(char) -> bool) -> usize {
    text[offset..]
        .char_indices()
        .find(|(_, c)| !accept(*c))
        .map_or(text.len(), |(i, _)| offset + i)
}

/// Characters of a name in a template path or function (`accountCurrency`, `valueof`).
#[must_use]
pub fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_value(line: &str) -> (Option<String>, Option<String>) {
        let l = Line::at(line, line.len());
        (l.key.map(str::to_owned), l.value().map(str::to_owned))
    }

    #[test]
    fn finds_the_key_and_the_typed_value_in_yaml_and_json() {
        let pair = |k: &str, v: &str| (Some(k.to_owned()), Some(v.to_owned()));
        assert_eq!(key_value("      create: /cust"), pair("create", "/cust"));
        assert_eq!(key_value("  - path: '/a"), pair("path", "/a"));
        assert_eq!(key_value("    \"update\": \"/x/"), pair("update", "/x/"));
        assert_eq!(
            key_value("{\"a\": 1, \"module\": \"Acc"),
            pair("module", "Acc")
        );
        assert_eq!(key_value("    module: "), pair("module", ""));
        assert_eq!(key_value("    module:"), pair("module", ""));
        assert_eq!(key_value("    modul"), (None, None));
    }

    #[test]
    fn the_parent_key_is_the_nearest_less_indented_line() {
        let text = "a:\n  schema:\n    type: String\n  type: ApiPath\n";
        let third = text.find("    type").expect("line");
        assert_eq!(parent_key(text, third), Some("schema"));
        let fourth = text.find("  type: Api").expect("line");
        assert_eq!(parent_key(text, fourth), Some("a"));
    }
}
