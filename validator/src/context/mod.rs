//! What the rules share: the model, `paths` indexed once, templates analysed once, and the
//! sink that applies `syncdef.toml` to what the rules report.

mod openapi;
mod templates;

use std::path::Path;
use std::sync::Arc;

use syncdef_definitions::extension::{Extension, ExtensionError};
use syncdef_definitions::model::{
    Action, ActionType, MethodCommon, OperationField, SyncEntry, Text, UnknownField,
};
use syncdef_definitions::operation::Operation as EntryOperation;
use syncdef_definitions::operation_ref::{OperationRef, OperationRefError};
use syncdef_definitions::path_match::PathIndex;
pub(crate) use syncdef_definitions::path_match::{PathEntry, Resolution};
use syncdef_definitions::{Definition, SourceFile, Span};

pub(crate) use openapi::{HolderKind, OpenApiObjects, Operation};
pub(crate) use templates::Template;

use crate::codes::Rule;
use crate::config::RuleSettings;
use crate::diagnostic::Diagnostic;
use crate::platform::{self, Module};

/// The shared, read-only view of one definition.
pub(crate) struct Context<'a> {
    pub doc: &'a Definition,
    pub paths: PathIndex<'a>,
    /// Names declared under `servers[].variables`, in document order, deduplicated.
    pub server_variables: Vec<&'a str>,
    pub entries: Vec<EntryInfo<'a>>,
    /// The platform record schema, with the definition's `x-syncdef-records` applied.
    pub records: crate::typecheck::Records<'a>,
    /// OpenAPI schemas converted to JSON Schema, on first use.
    pub schemas: crate::typecheck::openapi::SchemaCache,
    /// Sample records given by the user, by entry name.
    pub samples: &'a crate::typecheck::Samples,
    /// Operations, parameters and schemas of the OpenAPI part, found once for the OpenAPI
    /// rules (a walk of `paths` and `components`, no conversion).
    pub openapi: OpenApiObjects<'a>,
    /// `x-syncdef`, read once: empty when the definition has none, or when it cannot be read.
    pub extension: Extension,
    /// Why `x-syncdef` cannot be read (SD114 reports them); the rules that read it then judge
    /// nothing it would decide. Empty when it is read.
    pub extension_problems: Vec<ExtensionError>,
}

/// An entry and what the rules derive from it.
pub(crate) struct EntryInfo<'a> {
    pub entry: &'a SyncEntry,
    /// The platform module, when `module` names one.
    pub module: Option<&'static Module>,
    /// Templates of `push` and `pull`, analysed.
    pub templates: Vec<Template<'a>>,
    /// Every operation reference: operation fields and `ApiPath` action paths.
    pub operations: Vec<OperationSite<'a>>,
}

/// Where an operation reference is written.
pub(crate) struct OperationSite<'a> {
    /// The operation key (`create`) for operation fields; `None` for actions.
    pub operation: Option<&'a str>,
    /// The key the reference is written under (`create`, or the action's name).
    pub key: &'a str,
    pub key_span: Span,
    pub text: &'a Text,
    pub pointer: &'a str,
    pub parsed: &'a Result<OperationRef, OperationRefError>,
}

impl<'a> Context<'a> {
    /// The schemas the rules converted, the rest of the context given up.
    pub fn into_schemas(self) -> Vec<std::sync::Arc<crate::typecheck::openapi::Converted>> {
        self.schemas.into_converted()
    }

    pub fn new(doc: &'a Definition, samples: &'a crate::typecheck::Samples) -> Self {
        let text = doc.source.text();
        let entries = doc
            .sync
            .as_ref()
            .map(|s| s.entries.iter().map(|e| EntryInfo::new(e, text)).collect())
            .unwrap_or_default();
        let (extension, extension_problems) = match Extension::read(doc) {
            Ok(extension) => (extension.unwrap_or_default(), Vec::new()),
            Err(problems) => (Extension::default(), problems),
        };
        Context {
            doc,
            paths: PathIndex::new(doc.root()),
            server_variables: doc.server_variables(),
            entries,
            records: crate::typecheck::Records::of(&doc.root()),
            schemas: crate::typecheck::openapi::SchemaCache::default(),
            samples,
            openapi: OpenApiObjects::of(doc.root()),
            extension,
            extension_problems,
        }
    }

    pub fn text(&self) -> &'a str {
        self.doc.source.text()
    }

    /// The file span of `range` inside a string field.
    pub fn span_in(&self, text: &Text, range: std::ops::Range<usize>) -> Span {
        text.span_of(self.text(), range)
    }

    /// Resolves an operation reference against `paths`, as the engine does; `None` when it is
    /// malformed (reported by SD201 only). Binding ranges are offsets in the reference text.
    pub fn resolve(&self, site: &OperationSite<'a>) -> Option<Resolution<'a>> {
        site.parsed.as_ref().ok().map(|r| self.paths.resolve(r))
    }

    /// Whether `name` is a declared server variable.
    pub fn is_server_variable(&self, name: &str) -> bool {
        self.server_variables.contains(&name)
    }

    /// Entry names, in document order.
    pub fn entry_names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.entries.iter().map(|e| e.entry.key.value.as_str())
    }
}

impl<'a> EntryInfo<'a> {
    fn new(entry: &'a SyncEntry, text: &str) -> Self {
        let module = entry
            .module
            .as_ref()
            .and_then(|m| platform::module(&m.value));
        let mut templates = Vec::new();
        let mut operations = Vec::new();
        if let Some(push) = &entry.push {
            for (name, field) in [
                (EntryOperation::Create.key(), &push.create),
                (EntryOperation::Update.key(), &push.update),
                (EntryOperation::Delete.key(), &push.delete),
            ] {
                if let Some(field) = field {
                    operations.push(OperationSite::of_field(name, field));
                }
            }
            collect_common(&push.common, text, &mut templates, &mut operations);
        }
        if let Some(pull) = &entry.pull {
            for (name, field) in [
                (EntryOperation::Read.key(), &pull.read),
                (EntryOperation::BatchRead.key(), &pull.batch_read),
            ] {
                if let Some(field) = field {
                    operations.push(OperationSite::of_field(name, field));
                }
            }
            collect_common(&pull.common, text, &mut templates, &mut operations);
        }
        EntryInfo {
            entry,
            module,
            templates,
            operations,
        }
    }

    pub fn name(&self) -> &'a str {
        &self.entry.key.value
    }

    /// Every action of `push` and `pull`, pre then post.
    pub fn actions(&self) -> impl Iterator<Item = (bool, &'a Action)> {
        let commons = [
            self.entry.push.as_ref().map(|p| &p.common),
            self.entry.pull.as_ref().map(|p| &p.common),
        ];
        commons.into_iter().flatten().flat_map(|c| {
            c.pre_actions
                .iter()
                .map(|a| (true, a))
                .chain(c.post_actions.iter().map(|a| (false, a)))
        })
    }

    /// Every key of the entry the format does not define: of the entry, its `push`, its `pull`
    /// and its actions, in that order.
    pub fn unknown_fields(&self) -> impl Iterator<Item = &'a UnknownField> {
        let entry = self.entry;
        let methods = [
            entry.push.as_ref().map(|p| &p.common),
            entry.pull.as_ref().map(|p| &p.common),
        ];
        entry
            .unknown
            .iter()
            .chain(methods.into_iter().flatten().flat_map(|c| &c.unknown))
            .chain(self.actions().flat_map(|(_, a)| &a.unknown))
    }

    /// The template named `name`.
    pub fn template(&self, name: &str) -> Option<&Template<'a>> {
        self.templates.iter().find(|t| t.name() == name)
    }

    /// The operation site of operation key `op` (`update`).
    pub fn operation(&self, op: &str) -> Option<&OperationSite<'a>> {
        self.operations.iter().find(|o| o.operation == Some(op))
    }
}

impl<'a> OperationSite<'a> {
    fn of_field(name: &'a str, field: &'a OperationField) -> Self {
        OperationSite {
            operation: Some(name),
            key: name,
            key_span: field.name.span,
            text: &field.text,
            pointer: &field.pointer,
            parsed: &field.parsed,
        }
    }
}

fn collect_common<'a>(
    common: &'a MethodCommon,
    text: &str,
    templates: &mut Vec<Template<'a>>,
    operations: &mut Vec<OperationSite<'a>>,
) {
    templates.extend(common.templates.iter().map(|t| Template::analyse(t, text)));
    for action in common.pre_actions.iter().chain(&common.post_actions) {
        let is_api_path = matches!(
            action.kind.as_ref().map(|k| &k.value),
            Some(ActionType::ApiPath)
        );
        if let (true, Some(path), Some(parsed)) = (is_api_path, &action.path, &action.path_ref) {
            operations.push(OperationSite {
                operation: None,
                key: &action.name.value,
                key_span: action.name.span,
                text: path,
                pointer: &action.pointer,
                parsed,
            });
        }
    }
}

/// Collects diagnostics, applying the configured severity (and dropping disabled rules).
pub(crate) struct Sink<'s> {
    settings: &'s RuleSettings,
    path: &'s Path,
    file: Arc<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'s> Sink<'s> {
    pub fn new(settings: &'s RuleSettings, path: &'s Path, file: Arc<SourceFile>) -> Self {
        Sink {
            settings,
            path,
            file,
            diagnostics: Vec::new(),
        }
    }

    pub fn enabled(&self, rule: Rule) -> bool {
        self.settings.enabled(rule, self.path)
    }

    /// The linted file.
    pub fn file(&self) -> Arc<SourceFile> {
        Arc::clone(&self.file)
    }

    /// A diagnostic of `rule` in the linted file, to finish and [`Sink::push`].
    pub fn diagnostic(&self, rule: Rule, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(rule, Arc::clone(&self.file), span, message)
    }

    pub fn push(&mut self, mut diagnostic: Diagnostic) {
        if let Some(severity) = self.settings.severity(diagnostic.rule, self.path) {
            diagnostic.severity = severity;
            self.diagnostics.push(diagnostic);
        }
    }
}
