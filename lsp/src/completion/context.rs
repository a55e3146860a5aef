//! Which kind of completion the cursor asks for.

use syncdef_definitions::operation::Operation;

use crate::cursor::{self, Line, is_name_char};

/// The keys whose value is an operation reference (`/path/method`).
pub const OPERATION_KEYS: [&str; 6] = [
    Operation::Create.key(),
    Operation::Update.key(),
    Operation::Delete.key(),
    Operation::Read.key(),
    Operation::BatchRead.key(),
    // An `ApiPath` action's.
    "path",
];

/// A completion context: what is completed and where the text it replaces starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Context {
    /// An operation reference (`create: /cu|`), from the start of the value.
    Operation {
        /// Where the value starts.
        from: usize,
        /// Whether the key is `path` (an action: an `ApiSynchronization` names an entry).
        action: bool,
    },
    /// A template function after `#`.
    Function {
        /// Where the name starts (after `#`).
        from: usize,
    },
    /// A name of a record path: the dotted names before it (`["account", "accountCurrency"]`,
    /// empty for the roots after `$.`).
    RecordField {
        /// The names before the one being typed.
        parents: Vec<String>,
        /// Where the name starts.
        from: usize,
    },
    /// A placeholder name after `{`.
    Placeholder {
        /// Where the name starts.
        from: usize,
    },
    /// A module name (`module:`).
    Module {
        /// Where the value starts.
        from: usize,
    },
    /// An action's `type`.
    ActionType {
        /// Where the value starts.
        from: usize,
    },
    /// An action's `in`.
    ActionIn {
        /// Where the value starts.
        from: usize,
    },
    /// A rule code in an `x-syncdef-ignore`.
    RuleCode {
        /// Where the code starts.
        from: usize,
    },
}

impl Context {
    /// The context at byte `offset` of `text`, if the cursor is somewhere completion helps.
    #[must_use]
    pub fn at(text: &str, offset: usize) -> Option<Context> {
        let line = Line::at(text, offset);
        if let Some(found) = suppression(text, &line, offset) {
            return Some(found);
        }
        if let Some(found) = record_path(text, offset) {
            return Some(found);
        }
        let name_start = cursor::run_start(text, offset, is_name_char);
        if name_start > 0 && text.as_bytes()[name_start - 1] == b'#' {
            return Some(Context::Function { from: name_start });
        }
        let key = line.key?;
        let from = line.value_start?;
        let value = line.value().unwrap_or("");
        if OPERATION_KEYS.contains(&key) {
            if let Some(open) = value.rfind('{').filter(|&i| !value[i..].contains('}')) {
                return Some(Context::Placeholder {
                    from: from + open + 1,
                });
            }
            return Some(Context::Operation {
                from,
                action: key == "path",
            });
        }
        let parent = cursor::parent_key(text, line.start);
        match key {
            "module" => Some(Context::Module { from }),
            "type" if parent != Some("schema") => Some(Context::ActionType { from }),
            "in" => Some(Context::ActionIn { from }),
            _ => None,
        }
    }

    /// Where the text a chosen item replaces starts.
    #[must_use]
    pub fn replace_from(&self) -> usize {
        match self {
            Context::Operation { from, .. }
            | Context::Function { from }
            | Context::RecordField { from, .. }
            | Context::Placeholder { from }
            | Context::Module { from }
            | Context::ActionType { from }
            | Context::ActionIn { from }
            | Context::RuleCode { from } => *from,
        }
    }
}

/// `$.a.b.|`: the names before the cursor's, when the cursor ends a record path.
fn record_path(text: &str, offset: usize) -> Option<Context> {
    let from = cursor::run_start(text, offset, is_name_char);
    let path_start = cursor::run_start(text, from, |c| {
        is_name_char(c) || matches!(c, '.' | '$' | '[' | ']' | '?' | '@' | '=' | '(' | ')')
    });
    let path = &text[path_start..from];
    let at = path.rfind("$.")?;
    let before_name = path[at + 2..].strip_suffix('.').unwrap_or(&path[at + 2..]);
    if !path.ends_with('.') {
        return None;
    }
    let parents = if before_name.is_empty() {
        Vec::new()
    } else {
        split_names(before_name)
    };
    Some(Context::RecordField { parents, from })
}

/// `account.addresses[?(@.isBilling==true)].city` -> `["account", "addresses[]", "city"]`:
/// a name followed by brackets reads the items of an array.
fn split_names(path: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in path.chars() {
        match c {
            '[' => {
                if depth == 0 {
                    current.push_str("[]");
                }
                depth += 1;
            }
            ']' => depth = depth.saturating_sub(1),
            '.' if depth == 0 => names.push(std::mem::take(&mut current)),
            _ if depth == 0 => current.push(c),
            _ => {}
        }
    }
    names.push(current);
    names
}

/// A code inside an `x-syncdef-ignore` (its flow list or a block list item below it).
fn suppression(text: &str, line: &Line<'_>, offset: usize) -> Option<Context> {
    let in_value = line.key == Some("x-syncdef-ignore");
    let in_item = line.key.is_none()
        && line.before.trim_start().starts_with('-')
        && cursor::parent_key(text, line.start) == Some("x-syncdef-ignore");
    (in_value || in_item).then(|| Context::RuleCode {
        from: cursor::run_start(text, offset, |c| c.is_ascii_alphanumeric()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_end(text: &str) -> Option<Context> {
        Context::at(text, text.len())
    }

    /// Where `marker` ends in `text` (what is typed after it is completed).
    fn after(text: &str, marker: &str) -> usize {
        text.find(marker).expect("marker") + marker.len()
    }

    #[test]
    fn recognises_each_context() {
        let t = "x:\n  create: /cus";
        assert_eq!(
            at_end(t),
            Some(Context::Operation {
                from: after(t, "create: "),
                action: false
            })
        );
        let t = "x:\n  - path: '/cus";
        assert_eq!(
            at_end(t),
            Some(Context::Operation {
                from: after(t, "'"),
                action: true
            })
        );
        let t = "x:\n  create: /customer/{Acc";
        assert_eq!(
            at_end(t),
            Some(Context::Placeholder {
                from: after(t, "{")
            })
        );
        let t = "a: \"#valueof($.account.na";
        let parents = vec!["account".to_owned()];
        assert_eq!(
            at_end(t),
            Some(Context::RecordField {
                parents,
                from: after(t, "account.")
            })
        );
        let t = "a: \"#valueof($.";
        assert_eq!(
            at_end(t),
            Some(Context::RecordField {
                parents: vec![],
                from: t.len()
            })
        );
        let t = "a: \"#value";
        assert_eq!(
            at_end(t),
            Some(Context::Function {
                from: after(t, "#")
            })
        );
        let t = "  \"#ifg";
        assert_eq!(
            at_end(t),
            Some(Context::Function {
                from: after(t, "#")
            })
        );
        let t = "e:\n  module: Ac";
        assert_eq!(
            at_end(t),
            Some(Context::Module {
                from: after(t, ": ")
            })
        );
        let t = "e:\n  x-syncdef-ignore: [SD1";
        assert_eq!(
            at_end(t),
            Some(Context::RuleCode {
                from: after(t, "[")
            })
        );
        let t = "e:\n  x-syncdef-ignore:\n    - SD";
        assert_eq!(
            at_end(t),
            Some(Context::RuleCode {
                from: after(t, "- ")
            })
        );
        assert_eq!(at_end("a:\n  schema:\n    type: S"), None);
        let t = "a:\n  type: Api";
        assert_eq!(
            at_end(t),
            Some(Context::ActionType {
                from: after(t, ": ")
            })
        );
        assert_eq!(at_end("plain: text"), None);
    }

    #[test]
    fn array_reads_are_followed_into_their_items() {
        assert_eq!(
            split_names("account.addresses[?(@.isBilling==true)].x"),
            vec!["account", "addresses[]", "x"]
        );
    }
}
