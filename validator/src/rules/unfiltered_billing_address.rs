//! `UnfilteredBillingAddress`: a template reads a field of an address picked by position or
//! by a filter other than `isBilling`.

use syncdef_transform::JsonPath;
use syncdef_transform::path::StepKind;

use crate::codes::Rule;
use crate::context::{Context, Sink};
use crate::rule::declare_rule;

declare_rule! {
    /// ## What it does
    /// Reports template reads of an address field where the address is picked by position
    /// (`addresses[0]`), as all of them (`addresses[*]`), or by a filter that does not test
    /// `isBilling` (spec 2.6, rule 3: the billing address is
    /// `addresses[?(@.isBilling==true)]`).
    ///
    /// ## Why is this bad?
    /// A platform account has several addresses in no promised order. Whenever the billing
    /// address is not first, `addresses[0].city` is another address's city; a template that
    /// reads the street by position and the city by filter mixes two addresses in one body.
    ///
    /// ## Example
    /// ```yaml
    /// BillAddr:
    ///   City: "#valueof($.account.addresses[0].city)"
    /// ```
    ///
    /// ## Use instead
    /// ```yaml
    /// BillAddr:
    ///   City: "#valueof($.account.addresses[?(@.isBilling==true)].city)"
    /// ```
    pub struct UnfilteredBillingAddress {
        title: "an address field is read from an address not picked by `isBilling`",
        severity: Warning,
    }
}

pub(crate) fn check(ctx: &Context, sink: &mut Sink) {
    for info in &ctx.entries {
        for template in &info.templates {
            for read in &template.reads {
                let Some(picked) = unfiltered_pick(&read.path) else {
                    continue;
                };
                let d = sink
                    .diagnostic(
                        Rule::UnfilteredBillingAddress,
                        read.span,
                        format!(
                            "`{}` reads an address picked by `{picked}`, which is the billing address only when it happens to be",
                            read.path
                        ),
                    )
                    .with_pointer(template.source.pointer.clone())
                    .with_help(format!(
                        "pick the billing address: `{}`",
                        read.path.replacen(&picked, "[?(@.isBilling==true)]", 1)
                    ));
                sink.push(d);
            }
        }
    }
}

/// The text of the step that picks an address when `path` reads a field of it through
/// `addresses` with anything but an `isBilling` filter.
fn unfiltered_pick(path: &str) -> Option<String> {
    let parsed = JsonPath::parse(path).ok()?;
    let steps = parsed.steps();
    let at = steps
        .iter()
        .position(|s| matches!(&s.kind, StepKind::Member(m) if &**m == "addresses"))?;
    let (pick, rest) = (steps.get(at + 1)?, steps.get(at + 2..)?);
    if rest.is_empty() {
        // The address list itself (a `#loop` over every address) is fine.
        return None;
    }
    let text = path.get(pick.span.clone())?;
    let unfiltered = match &pick.kind {
        // A filter meant to test `isBilling` but misspelt is SD801's to report.
        StepKind::Filter(_) => !text.to_ascii_lowercase().contains("isbil"),
        StepKind::Index(_) | StepKind::Indexes(_) | StepKind::AnyIndex | StepKind::Slice { .. } => {
            true
        }
        _ => false,
    };
    unfiltered.then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::unfiltered_pick;

    #[test]
    fn picks_by_position_or_other_filters_are_found() {
        let pick = |p: &str| unfiltered_pick(p);
        assert_eq!(pick("$.account.addresses[0].city").as_deref(), Some("[0]"));
        assert_eq!(pick("$.account.addresses[*].city").as_deref(), Some("[*]"));
        assert_eq!(
            pick("$.account.addresses[?(@.isShipping==true)].city").as_deref(),
            Some("[?(@.isShipping==true)]")
        );
        assert_eq!(pick("$.account.addresses[?(@.isBilling==true)].city"), None);
        assert_eq!(pick("$.account.addresses"), None);
        assert_eq!(pick("$.account.addresses[0]"), None);
        assert_eq!(pick("$.account.name"), None);
    }
}
