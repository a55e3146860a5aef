//! Matching an [`OperationRef`] against the document's `paths` by template.
//!
//! A reference names a path the way the engine will call it: a path parameter of the document
//! (`/customer/{customerId}`) may be filled with a placeholder (`{IntegrationId}`) or a literal
//! (`/customer/42`), and OData keys put several parameters in one segment
//! (`/SalesInvoice(No='{No}',Document_Type='{Document_Type}')`). Matching is a small
//! backtracking match of the reference's characters and placeholders against the template's
//! literals and parameters; among several matching paths the one with the most literal text
//! (the most specific) wins, as OpenAPI prescribes for `/users/me` over `/users/{id}`.

use openapiv3::{OpenAPI, Operation, PathItem, ReferenceOr};

use crate::operation_ref::{HttpMethod, OperationRef};

/// What fills one path parameter of the matched template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// The reference writes a literal value.
    Literal(String),
    /// The reference writes placeholder number `n` of [`OperationRef::placeholders`].
    Placeholder(usize),
}

/// A path parameter of the template and what fills it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamBinding {
    /// The parameter's name in the document's path template.
    pub parameter: String,
    /// What the reference puts there.
    pub value: Binding,
}

/// The outcome of resolving an operation reference.
#[derive(Clone, Debug)]
pub enum Resolution<'a> {
    /// The path and its operation.
    Found {
        /// The document's path template.
        path: &'a str,
        /// Its path item.
        item: &'a PathItem,
        /// The operation for the reference's method.
        operation: &'a Operation,
        /// How the reference fills the template's parameters.
        bindings: Vec<ParamBinding>,
    },
    /// The path exists but has no operation for the method.
    MethodMissing {
        /// The document's path template.
        path: &'a str,
        /// Its path item.
        item: &'a PathItem,
        /// The methods the path does have.
        available: Vec<HttpMethod>,
    },
    /// No path matches; the closest ones, best first, for a did-you-mean.
    NotFound {
        /// Up to three path templates resembling the reference.
        candidates: Vec<&'a str>,
    },
}

/// Resolves `reference` against `api.paths` (path items given by `$ref` are skipped).
#[must_use]
pub fn resolve<'a>(api: &'a OpenAPI, reference: &OperationRef) -> Resolution<'a> {
    let mut best: Option<(usize, &'a str, &'a PathItem, Vec<ParamBinding>)> = None;
    for (path, item) in &api.paths.paths {
        let ReferenceOr::Item(item) = item else {
            continue;
        };
        if let Some(bindings) = match_template(path, reference) {
            let score = literal_len(path);
            let better = best.as_ref().is_none_or(|(s, _, i, _)| {
                // Prefer the path that has the method, then the most specific one.
                let has = reference.method.operation(item).is_some();
                let had = reference.method.operation(i).is_some();
                (has, score) > (had, *s)
            });
            if better {
                best = Some((score, path, item, bindings));
            }
        }
    }
    match best {
        Some((_, path, item, bindings)) => match reference.method.operation(item) {
            Some(operation) => Resolution::Found {
                path,
                item,
                operation,
                bindings,
            },
            None => Resolution::MethodMissing {
                path,
                item,
                available: HttpMethod::ALL
                    .into_iter()
                    .filter(|m| m.operation(item).is_some())
                    .collect(),
            },
        },
        None => Resolution::NotFound {
            candidates: candidates(api, &reference.path),
        },
    }
}

/// Matches the reference's path against one path template; the parameter bindings on success.
#[must_use]
pub fn match_template(template: &str, reference: &OperationRef) -> Option<Vec<ParamBinding>> {
    let tpl = template_tokens(template)?;
    let units = reference_units(reference);
    let mut memo = vec![false; (tpl.len() + 1) * (units.len() + 1)];
    let mut bindings = Vec::new();
    if step(&tpl, &units, 0, 0, &mut memo, &mut bindings) {
        bindings.reverse();
        Some(bindings)
    } else {
        None
    }
}

enum Tok<'a> {
    Lit(&'a str),
    Param(&'a str),
}

#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Char(char),
    Placeholder(usize),
}

fn template_tokens(template: &str) -> Option<Vec<Tok<'_>>> {
    let mut out = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        match rest.find('{') {
            Some(0) => {
                let close = rest.find('}')?;
                out.push(Tok::Param(&rest[1..close]));
                rest = &rest[close + 1..];
            }
            Some(open) => {
                out.push(Tok::Lit(&rest[..open]));
                rest = &rest[open..];
            }
            None => {
                out.push(Tok::Lit(rest));
                rest = "";
            }
        }
    }
    Some(out)
}

fn reference_units(reference: &OperationRef) -> Vec<Unit> {
    let mut out = Vec::with_capacity(reference.path.len());
    let mut placeholders = reference.placeholders.iter().enumerate().peekable();
    let mut i = 0;
    let path = &reference.path;
    while i < path.len() {
        if let Some((n, p)) = placeholders
            .peek()
            .filter(|(_, p)| p.range.start == i)
            .copied()
        {
            out.push(Unit::Placeholder(n));
            i = p.range.end;
            placeholders.next();
        } else if let Some(c) = path[i..].chars().next() {
            out.push(Unit::Char(c));
            i += c.len_utf8();
        } else {
            break;
        }
    }
    out
}

/// Matches tokens from `t` against units from `u`; bindings are pushed innermost first.
/// `memo` remembers (token, unit) states known to fail, which bounds the work by their product.
fn step(
    tpl: &[Tok<'_>],
    units: &[Unit],
    t: usize,
    u: usize,
    memo: &mut [bool],
    out: &mut Vec<ParamBinding>,
) -> bool {
    let key = t * (units.len() + 1) + u;
    if memo[key] {
        return false;
    }
    let ok = match tpl.get(t) {
        None => u == units.len(),
        Some(Tok::Lit(lit)) => {
            let mut k = u;
            let mut matched = true;
            for c in lit.chars() {
                if units.get(k) == Some(&Unit::Char(c)) {
                    k += 1;
                } else {
                    matched = false;
                    break;
                }
            }
            matched && step(tpl, units, t + 1, k, memo, out)
        }
        Some(Tok::Param(name)) => match units.get(u) {
            Some(Unit::Placeholder(n)) => {
                let ok = step(tpl, units, t + 1, u + 1, memo, out);
                if ok {
                    out.push(ParamBinding {
                        parameter: (*name).to_owned(),
                        value: Binding::Placeholder(*n),
                    });
                }
                ok
            }
            _ => {
                // A literal value: one or more characters within the segment.
                let mut end = u;
                let mut found = false;
                while let Some(Unit::Char(c)) = units.get(end) {
                    if *c == '/' {
                        break;
                    }
                    end += 1;
                    if step(tpl, units, t + 1, end, memo, out) {
                        let value = units[u..end]
                            .iter()
                            .filter_map(|x| match x {
                                Unit::Char(c) => Some(*c),
                                Unit::Placeholder(_) => None,
                            })
                            .collect();
                        out.push(ParamBinding {
                            parameter: (*name).to_owned(),
                            value: Binding::Literal(value),
                        });
                        found = true;
                        break;
                    }
                }
                found
            }
        },
    };
    if !ok {
        memo[key] = true;
    }
    ok
}

fn literal_len(template: &str) -> usize {
    template_tokens(template)
        .map(|toks| {
            toks.iter()
                .map(|t| if let Tok::Lit(l) = t { l.len() } else { 0 })
                .sum()
        })
        .unwrap_or(0)
}

/// Paths resembling `path`, parameters normalised away, best first.
fn candidates<'a>(api: &'a OpenAPI, path: &str) -> Vec<&'a str> {
    let wanted = normalise(path);
    let mut scored: Vec<(f64, &'a str)> = api
        .paths
        .paths
        .keys()
        .map(|p| {
            (
                strsim::normalized_levenshtein(&normalise(p), &wanted),
                p.as_str(),
            )
        })
        .filter(|(score, _)| *score >= 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    scored.into_iter().take(3).map(|(_, p)| p).collect()
}

/// `{anything}` becomes `{}` so that parameter names do not count as differences.
fn normalise(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    out.push_str("{}");
                }
            }
            '}' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}
