//! Walking a JSONPath's steps through a JSON Schema: the platform record schema for request
//! templates, an operation's response schema for response templates and actions.

use std::collections::HashMap;
use std::ops::Range;

use syncdef_definitions::platform::{FieldSchema, Property};
use syncdef_transform::path::{FilterExpr, Operand, Step, StepKind};
use syncdef_transform::{PathContext, PathUse};

/// What is wrong with a read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReadProblemKind {
    /// A member the object does not declare; `definition` names the object's definition in
    /// its schema document (`Account`), when it is one.
    UnknownProperty {
        candidates: Vec<String>,
        definition: Option<String>,
    },
    /// An index, slice, wildcard or filter applied to something that is not an array.
    NotAnArray,
    /// A member read on an array (`addresses.city`).
    MemberOfArray,
    /// A member read on a scalar (`name.first`).
    MemberOfScalar,
    /// A filter (`[?(@.x==...)]`) tests a field the items do not declare.
    UnknownFilterField { candidates: Vec<String> },
}

/// A problem at a step of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReadProblem {
    pub kind: ReadProblemKind,
    /// The name the step reads (for member problems).
    pub name: String,
    /// Byte range in the path text of what to underline (the name, or the bracket step).
    pub range: Range<usize>,
    /// The path text before the step (`$.account.addresses`), for messages.
    pub prefix: String,
}

/// The schema a path ends at (`None` when it leaves what the schema describes: an open
/// object, a recursive descent, a value of unknown type), or the first problem.
pub(crate) fn walk<'s>(
    start: FieldSchema<'s>,
    text: &str,
    steps: &[Step],
) -> Result<Option<FieldSchema<'s>>, ReadProblem> {
    let mut at = start;
    for step in steps {
        if step.recursive {
            return Ok(None);
        }
        let prefix = || text.get(..step.span.start).unwrap_or("").to_owned();
        match &step.kind {
            StepKind::Root | StepKind::Current => {}
            StepKind::Member(name) => match member(at, name) {
                Ok(Some(next)) => at = next,
                Ok(None) => return Ok(None),
                Err(kind) => {
                    return Err(ReadProblem {
                        kind,
                        name: name.to_string(),
                        range: name_range(text, &step.span, name),
                        prefix: prefix(),
                    });
                }
            },
            StepKind::Members(names) => {
                for name in names {
                    if let Err(kind) = member(at, name) {
                        return Err(ReadProblem {
                            kind,
                            name: name.to_string(),
                            range: name_range(text, &step.span, name),
                            prefix: prefix(),
                        });
                    }
                }
                return Ok(None);
            }
            StepKind::AnyMember => return Ok(None),
            StepKind::Index(_)
            | StepKind::Indexes(_)
            | StepKind::AnyIndex
            | StepKind::Slice { .. } => {
                if at.is_not_array() {
                    return Err(not_an_array(step, prefix()));
                }
                match at.items() {
                    Some(items) => at = items,
                    None => return Ok(None),
                }
            }
            StepKind::Filter(filter) => {
                if at.is_not_array() {
                    return Err(not_an_array(step, prefix()));
                }
                let Some(items) = at.items() else {
                    return Ok(None);
                };
                check_filter(items, text, filter).map_err(|mut p| {
                    p.prefix = prefix();
                    p
                })?;
                at = items;
            }
        }
    }
    Ok(Some(at))
}

fn not_an_array(step: &Step, prefix: String) -> ReadProblem {
    ReadProblem {
        kind: ReadProblemKind::NotAnArray,
        name: String::new(),
        range: step.span.clone(),
        prefix,
    }
}

/// Property `name` of `at`: the next schema, `None` when unknown territory, or the problem.
fn member<'s>(at: FieldSchema<'s>, name: &str) -> Result<Option<FieldSchema<'s>>, ReadProblemKind> {
    if at.is_not_object() {
        return Err(if at.is_not_array() {
            ReadProblemKind::MemberOfScalar
        } else {
            ReadProblemKind::MemberOfArray
        });
    }
    match at.property(name) {
        Property::Known(next) => Ok(Some(next)),
        Property::Open => Ok(None),
        Property::Unknown => Err(ReadProblemKind::UnknownProperty {
            candidates: at.property_names().into_iter().map(str::to_owned).collect(),
            definition: at.definition().map(str::to_owned),
        }),
    }
}

/// Checks the `@`-relative paths of a filter against the item schema.
fn check_filter(
    items: FieldSchema<'_>,
    text: &str,
    filter: &FilterExpr,
) -> Result<(), ReadProblem> {
    match filter {
        FilterExpr::Or(a, b) | FilterExpr::And(a, b) => {
            check_filter(items, text, a)?;
            check_filter(items, text, b)
        }
        FilterExpr::Exists(op) | FilterExpr::Matches { left: op, .. } => {
            check_operand(items, text, op)
        }
        FilterExpr::Compare { left, right, .. } => {
            check_operand(items, text, left)?;
            check_operand(items, text, right)
        }
    }
}

fn check_operand(items: FieldSchema<'_>, text: &str, op: &Operand) -> Result<(), ReadProblem> {
    let Operand::Path(steps) = op else {
        return Ok(());
    };
    // `$`-rooted operands read the whole input: not the item's fields.
    if !matches!(steps.first().map(|s| &s.kind), Some(StepKind::Current)) {
        return Ok(());
    }
    walk(items, text, steps).map(|_| ()).map_err(|mut p| {
        if let ReadProblemKind::UnknownProperty { candidates, .. } = p.kind {
            p.kind = ReadProblemKind::UnknownFilterField { candidates };
        }
        p
    })
}

/// The range of `name` inside a step's syntax (`.name`, `['name']`).
fn name_range(text: &str, span: &Range<usize>, name: &str) -> Range<usize> {
    let offset = text.get(span.clone()).and_then(|t| t.find(name));
    match offset {
        Some(o) => span.start + o..span.start + o + name.len(),
        None => span.clone(),
    }
}

/// The schema each loop alias iterates over, built while visiting a template's reads in
/// order (a loop's own path comes before the reads of its body).
#[derive(Default)]
pub(crate) struct Loops<'s> {
    /// Alias -> the item schema and the loop's path as written (`$.invoice.items`).
    elements: HashMap<String, (Option<FieldSchema<'s>>, String)>,
}

impl<'s> Loops<'s> {
    /// The schema a read starts from: the input for root reads, the loop element for reads
    /// inside a loop; `None` when unknown (a scope, an alias without schema).
    pub fn start(&self, input: FieldSchema<'s>, context: &PathContext) -> Option<FieldSchema<'s>> {
        match context {
            PathContext::Root => Some(input),
            PathContext::LoopElement(alias) => self.elements.get(alias).and_then(|e| e.0),
            _ => None,
        }
    }

    /// The path of the loop a read inside it iterates over, as written.
    pub fn path(&self, context: &PathContext) -> Option<&str> {
        match context {
            PathContext::LoopElement(alias) => self.elements.get(alias).map(|e| e.1.as_str()),
            _ => None,
        }
    }

    /// Records the element schema of a `#loop` key's path (`end` is where the path ends).
    pub fn enter(&mut self, use_: &PathUse<'_>, end: Option<FieldSchema<'s>>) {
        if use_.function != "loop" || use_.argument != 1 {
            return;
        }
        let element = end.and_then(|s| s.items());
        if let Some(alias) = loop_alias(&use_.location.pointer) {
            self.elements
                .insert(alias, (element, use_.path.text().to_owned()));
        }
    }
}

/// The alias of the `#loop` key at `pointer`: its second argument, or `loop<n>` where `n`
/// counts the enclosing loops (the template language's default).
fn loop_alias(pointer: &str) -> Option<String> {
    let tokens: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let key = tokens.last()?;
    let args = key.strip_prefix("#loop(")?.strip_suffix(')')?;
    let mut depth = 0i32;
    let mut second = None;
    for (i, c) in args.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                let rest = args.get(i + 1..).unwrap_or("");
                let alias = rest.split(',').next().unwrap_or("").trim();
                if !alias.is_empty() {
                    second = Some(alias.to_owned());
                }
                break;
            }
            _ => {}
        }
    }
    Some(second.unwrap_or_else(|| {
        let enclosing = tokens[..tokens.len() - 1]
            .iter()
            .filter(|t| t.starts_with("#loop("))
            .count();
        format!("loop{}", enclosing + 1)
    }))
}

/// The message and help of a read problem, worded the same for platform records and for
/// responses: `owner` names what is read (`` `$.account` ``, "the response"), `suggest` words the
/// candidates of a misspelt field, `filter` is a filter that side's reads would write
/// (`@.isBilling==true`), and `unknown_property` words a field the schema lacks, which each side
/// words its own way (its candidates and the schema's definition name).
pub(crate) fn problem_words(
    p: &ReadProblem,
    owner: &str,
    filter: &str,
    suggest: impl Fn(&[String]) -> String,
    unknown_property: impl FnOnce(&[String], Option<&str>) -> (String, String),
) -> (String, String) {
    match &p.kind {
        ReadProblemKind::UnknownProperty {
            candidates,
            definition,
        } => unknown_property(candidates, definition.as_deref()),
        ReadProblemKind::UnknownFilterField { candidates } => (
            format!(
                "the filter tests `{}`, which the items of {owner} do not have",
                p.name
            ),
            suggest(candidates),
        ),
        ReadProblemKind::NotAnArray => (
            format!("{owner} is not an array: it cannot be indexed or filtered"),
            "read the field directly, without `[...]`".to_owned(),
        ),
        ReadProblemKind::MemberOfArray => (
            format!("{owner} is an array: `.{}` reads no item", p.name),
            format!(
                "select an item first, by index (`[0].{0}`) or by a filter (`[?({filter})].{0}`)",
                p.name
            ),
        ),
        ReadProblemKind::MemberOfScalar => (
            format!("{owner} is not an object: it has no field `{}`", p.name),
            "remove the extra step".to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syncdef_definitions::platform::builtin;
    use syncdef_transform::JsonPath;

    fn check(root: &str, path: &str) -> Result<bool, ReadProblem> {
        let record = builtin().input();
        let _ = root;
        let p = JsonPath::parse(path).expect("parses");
        walk(record, p.text(), p.steps()).map(|s| s.is_some())
    }

    #[test]
    fn known_fields_resolve() {
        assert_eq!(
            check("account", "$.account.accountCurrency.currency.name"),
            Ok(true)
        );
        assert_eq!(
            check(
                "account",
                "$.account.addresses[?(@.isBilling==true)].postCode"
            ),
            Ok(true)
        );
        assert_eq!(check("invoice", "$.invoice.items[0].quantity"), Ok(true));
        assert_eq!(check("case", "$.case.anything.at.all"), Ok(false));
    }

    #[test]
    fn unknown_property_with_range_and_candidates() {
        let e = check("account", "$.account.nmae").expect_err("unknown");
        assert_eq!(e.range, 10..14);
        assert_eq!(e.prefix, "$.account");
        match e.kind {
            ReadProblemKind::UnknownProperty {
                candidates,
                definition,
            } => {
                assert!(candidates.iter().any(|c| c == "name"));
                assert_eq!(definition.as_deref(), Some("Account"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn indexing_a_non_array_and_member_of_array() {
        let e = check("account", "$.account.name[0]").expect_err("not an array");
        assert_eq!(e.kind, ReadProblemKind::NotAnArray);
        assert_eq!(e.range, 14..17);
        let e = check("account", "$.account.addresses.city").expect_err("array");
        assert_eq!(e.kind, ReadProblemKind::MemberOfArray);
        let e = check("account", "$.account.name.first").expect_err("scalar");
        assert_eq!(e.kind, ReadProblemKind::MemberOfScalar);
    }

    #[test]
    fn filter_fields_are_checked_at_their_characters() {
        let path = "$.account.addresses[?(@.isBiling==true)].city";
        let e = check("account", path).expect_err("unknown filter field");
        assert!(matches!(e.kind, ReadProblemKind::UnknownFilterField { .. }));
        assert_eq!(&path[e.range.clone()], "isBiling");
    }

    #[test]
    fn loop_aliases() {
        assert_eq!(
            loop_alias("/Line/#loop($.invoice.items)").as_deref(),
            Some("loop1")
        );
        assert_eq!(
            loop_alias("/Line/#loop($.invoice.items, item)").as_deref(),
            Some("item")
        );
        assert_eq!(
            loop_alias("/#loop($.a)/x/#loop($.b)").as_deref(),
            Some("loop2")
        );
    }
}
