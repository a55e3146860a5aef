//! The code table: every rule's stable code, in one place.
//!
//! Codes are `SD` plus three digits; the first digit is the group:
//!
//! | group | what |
//! |---|---|
//! | `SD1xx` | loading: syntax, YAML hazards, OpenAPI structure, `$ref`s, shape of the `synchronization` section, suppressions |
//! | `SD2xx` | operation references (`/path/method`) |
//! | `SD3xx` | placeholders (`{IntegrationId}`, `{Account.IntegrationId}`, server variables) |
//! | `SD4xx` | transformation templates (`schemasTransformer`) |
//! | `SD5xx` | pre- and post-synchronization actions |
//! | `SD6xx` | synchronization entries (`module`, update semantics) |
//! | `SD7xx` | security schemes |
//! | `SD8xx` | type checking: templates against platform records and external schemas |
//! | `SD9xx` | reserved: configuration and tool problems |
//!
//! A code is never reused: a removed rule keeps its number retired, so suppressions in users'
//! `syncdef.toml` never start silencing something else.
//!
//! The table below is the one place a rule is registered. Each line gives the code, the rule's
//! module and struct (its `declare_rule!`: title, severity, documentation) and how it runs:
//! `by check` (the checker calls `rules::<module>::check` when the rule is enabled; `by check f`
//! calls `f` instead), `by openapi` (the same, also for a document without a `synchronization`
//! section: the rule reads the OpenAPI part only), `by loading`
//! (the loader's problems are reported under it) or `by suppressions` (the suppression pass).
//! The `Rule` enum, `Rule::ALL`, the codes, the dispatch, `syncdef explain`, the SARIF rule
//! descriptors and the pages of docs/rules/ all come from it. `tests/it/rules.rs` fails for a
//! declared rule without a fixture in `tests/fixtures/` (`<CODE>.yaml`, `<CODE>_<case>.yaml`)
//! or whose fixture does not make it fire; docs/contributing/add-a-rule.md walks through it.

use crate::diagnostic::Severity;
use crate::rule::RuleMeta;

/// What a rule runs: it reads the context and reports into the sink.
pub(crate) type Check = fn(&crate::context::Context, &mut crate::context::Sink);

/// How a rule is run.
#[derive(Clone, Copy)]
pub(crate) enum Dispatch {
    /// A check over the loaded definition, called by the checker when the rule is enabled.
    Check(Check),
    /// A check of the OpenAPI part alone: it runs on documents without a `synchronization`
    /// section too (they are still OpenAPI documents).
    OpenApi(Check),
    /// Reported by the loader (syntax, YAML hazards, OpenAPI structure, the section's shape),
    /// through `load_problem.rs` and the checker's `rule_for_problem`.
    Loading,
    /// Reported by the suppression pass (`crate::suppress`).
    Suppressions,
}

/// The dispatch of one table line.
macro_rules! dispatch {
    ($module:ident, loading) => {
        Dispatch::Loading
    };
    ($module:ident, suppressions) => {
        Dispatch::Suppressions
    };
    ($module:ident, check) => {
        Dispatch::Check(crate::rules::$module::check)
    };
    ($module:ident, openapi) => {
        Dispatch::OpenApi(crate::rules::$module::check)
    };
    ($module:ident, check $function:ident) => {
        Dispatch::Check(crate::rules::$module::$function)
    };
}

macro_rules! rule_codes {
    ($( $code:literal => $module:ident :: $name:ident by $how:ident $($function:ident)?, )*) => {
        /// Every rule, one variant each, named for the bad pattern it catches.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Rule {
            $(
                #[doc = concat!("`", $code, "`: see [`crate::rules::", stringify!($module), "`].")]
                $name,
            )*
        }

        impl Rule {
            /// All rules, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$name,)*];

            /// The stable code, such as `SD202`.
            #[must_use]
            pub const fn code(self) -> &'static str {
                match self {
                    $(Rule::$name => $code,)*
                }
            }

            /// How the rule is run.
            pub(crate) const fn dispatch(self) -> Dispatch {
                match self {
                    $(Rule::$name => dispatch!($module, $how $($function)?),)*
                }
            }

            /// Title, default severity and documentation.
            #[must_use]
            pub const fn meta(self) -> &'static RuleMeta {
                match self {
                    $(Rule::$name => &crate::rules::$module::$name::META,)*
                }
            }
        }
    };
}

rule_codes! {
    // Loading and structure.
    "SD100" => invalid_syntax::InvalidSyntax by loading,
    "SD101" => duplicate_key::DuplicateKey by loading,
    "SD102" => alias_bomb::AliasBomb by loading,
    "SD103" => excessive_nesting::ExcessiveNesting by loading,
    "SD104" => non_utf8_input::NonUtf8Input by loading,
    "SD105" => invalid_openapi::InvalidOpenApi by loading,
    "SD106" => broken_ref::BrokenRef by loading,
    "SD107" => circular_ref::CircularRef by loading,
    "SD108" => invalid_sync_structure::InvalidSyncStructure by loading,
    "SD109" => unknown_key::UnknownKey by check,
    "SD110" => missing_sync_section::MissingSyncSection by loading,
    "SD111" => file_too_large::FileTooLarge by loading,
    "SD112" => misspelt_key::MisspeltKey by check,
    "SD113" => invalid_server_variable::InvalidServerVariable by openapi,
    "SD114" => invalid_extension::InvalidExtension by check,
    "SD115" => unused_suppression::UnusedSuppression by suppressions,
    "SD116" => invalid_suppression::InvalidSuppression by suppressions,
    // Semantic OpenAPI checks (SD117 to SD119 are kept for the structure's own codes).
    "SD120" => path_parameter_mismatch::PathParameterMismatch by openapi,
    "SD121" => optional_path_parameter::OptionalPathParameter by openapi,
    "SD122" => duplicate_operation_id::DuplicateOperationId by openapi,
    "SD123" => invalid_response_code::InvalidResponseCode by openapi,
    "SD124" => undeclared_required_property::UndeclaredRequiredProperty by openapi,
    "SD125" => invalid_pattern::InvalidPattern by openapi,
    "SD126" => example_mismatch::ExampleMismatch by openapi,
    "SD127" => array_without_items::ArrayWithoutItems by openapi,
    "SD128" => invalid_overlay::InvalidOverlay by loading,
    // Operation references.
    "SD201" => malformed_operation_ref::MalformedOperationRef by check,
    "SD202" => unknown_operation_path::UnknownOperationPath by check,
    "SD203" => method_not_on_path::MethodNotOnPath by check,
    "SD204" => dot_segment_path::DotSegmentPath by check,
    // Placeholders.
    "SD301" => unknown_placeholder::UnknownPlaceholder by check,
    "SD302" => unknown_placeholder_entry::UnknownPlaceholderEntry by check,
    "SD303" => unsupplied_path_parameter::UnsuppliedPathParameter by check,
    "SD304" => unsupplied_parameter::UnsuppliedParameter by check,
    "SD305" => unused_parameter_value::UnusedParameterValue by check,
    // Templates.
    "SD401" => missing_template::MissingTemplate by check,
    "SD402" => unused_template::UnusedTemplate by check,
    "SD403" => template_syntax_error::TemplateSyntaxError by check,
    "SD404" => foreign_template_root::ForeignTemplateRoot by check,
    "SD405" => sync_token_without_pre_action::SyncTokenWithoutPreAction by check,
    "SD406" => undeclared_server_variable::UndeclaredServerVariable by check,
    "SD407" => unknown_template_input::UnknownTemplateInput by check,
    // Actions.
    "SD501" => unknown_action_type::UnknownActionType by check,
    "SD502" => unknown_action_placement::UnknownActionPlacement by check,
    "SD503" => incomplete_header_action::IncompleteHeaderAction by check,
    "SD504" => unknown_synchronization_target::UnknownSynchronizationTarget by check,
    "SD505" => entry_dependency_cycle::EntryDependencyCycle by check,
    "SD506" => pull_action::PullAction by check,
    "SD507" => misplaced_lines::MisplacedLines by check,
    // Entries.
    "SD601" => unknown_module::UnknownModule by check,
    "SD602" => update_without_concurrency_token::UpdateWithoutConcurrencyToken by check,
    "SD603" => update_without_external_id::UpdateWithoutExternalId by check,
    "SD604" => update_not_sparse::UpdateNotSparse by check,
    // Security.
    "SD701" => unknown_security_scheme::UnknownSecurityScheme by check,
    "SD702" => incomplete_oauth_flow::IncompleteOauthFlow by check,
    "SD703" => undeclared_scope::UndeclaredScope by check,
    "SD704" => missing_security::MissingSecurity by check,
    "SD705" => insecure_url::InsecureUrl by check,
    "SD706" => unsendable_security::UnsendableSecurity by check,
    // Type checking.
    "SD801" => unknown_record_field::UnknownRecordField by check,
    "SD802" => request_body_mismatch::RequestBodyMismatch by check,
    "SD803" => unknown_response_field::UnknownResponseField by check,
    "SD804" => external_id_not_convertible::ExternalIdNotConvertible by check,
    "SD805" => external_id_not_convertible::ExternalIdMayNotConvert by check check_unless_errors_run,
    "SD809" => external_id_not_convertible::ExternalIdKeptAsText by check check_unless_others_run,
    "SD806" => unknown_action_response_field::UnknownActionResponseField by check,
    "SD807" => unfiltered_billing_address::UnfilteredBillingAddress by check,
    "SD808" => response_contract_mismatch::ResponseContractMismatch by check,
    "SD810" => pulled_record_shape::PulledRecordShape by check,
    "SD811" => unknown_pulled_field::UnknownPulledField by check,
    "SD812" => malformed_response_template::MalformedResponseTemplate by check,
    "SD813" => dropped_failure_report::DroppedFailureReport by check,
    "SD814" => unwritable_request_body::UnwritableRequestBody by check,
    "SD815" => unencodable_request_body::UnencodableRequestBody by check,
}

/// Where the rule pages are published; `<CODE>.md` is appended.
pub const DOCS_BASE_URL: &str = "https://github.com/syncdef/syncdef/blob/main/docs/rules/";

impl Rule {
    /// The rule whose code is `code` (case-insensitive, `sd202` works too).
    #[must_use]
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL
            .iter()
            .copied()
            .find(|rule| rule.code().eq_ignore_ascii_case(code.trim()))
    }

    /// The rule whose code is `code`, or an error message naming the closest code
    /// (`syncdef explain SD20` -> "unknown rule code `SD20`: did you mean `SD201`?").
    ///
    /// # Errors
    /// No rule has that code.
    pub fn lookup(code: &str) -> Result<Rule, String> {
        Rule::from_code(code).ok_or_else(|| {
            // A truncated code (`SD20`) means the codes it starts, not one an edit away
            // (`SD120`).
            let wanted = code.trim().to_uppercase();
            let started = Rule::ALL
                .iter()
                .find(|r| wanted.len() > 2 && r.code().starts_with(&wanted))
                .map(|r| format!("did you mean `{}`?", r.code()));
            let hint = started
                .or_else(|| crate::suggest::hint(code, Rule::ALL.iter().map(|r| r.code())))
                .unwrap_or_else(|| "`syncdef rules` lists the codes".to_owned());
            format!("unknown rule code `{code}`: {hint}")
        })
    }

    /// The severity used when `syncdef.toml` says nothing.
    #[must_use]
    pub const fn default_severity(self) -> Severity {
        self.meta().default_severity
    }

    /// The one-line title.
    #[must_use]
    pub const fn title(self) -> &'static str {
        self.meta().title
    }

    /// The kebab-case name (`unknown-operation-path`).
    #[must_use]
    pub fn name(self) -> String {
        self.meta().name()
    }

    /// The documentation in Markdown, as `syncdef explain` prints it.
    #[must_use]
    pub fn documentation(self) -> String {
        self.meta().documentation()
    }

    /// The URL of the rule's docs page.
    #[must_use]
    pub fn url(self) -> String {
        format!("{DOCS_BASE_URL}{}.md", self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = HashSet::new();
        for rule in Rule::ALL {
            let code = rule.code();
            assert!(seen.insert(code), "{code} is used twice");
            assert!(
                code.len() == 5
                    && code.starts_with("SD")
                    && code[2..].bytes().all(|b| b.is_ascii_digit()),
                "{code} is not SD + 3 digits"
            );
            // SD9xx is a reserved group.
            assert!(!code.starts_with("SD9"), "{code} is in a reserved group");
        }
    }

    #[test]
    fn every_rule_documents_every_section() {
        let incomplete: Vec<String> = Rule::ALL
            .iter()
            .filter_map(|rule| {
                let missing = rule.meta().missing_sections();
                (!missing.is_empty()).then(|| format!("{}: {}", rule.code(), missing.join(", ")))
            })
            .collect();
        assert!(
            incomplete.is_empty(),
            "rule docs lack sections:\n{}",
            incomplete.join("\n")
        );
    }

    #[test]
    fn titles_are_one_line_without_final_period() {
        for rule in Rule::ALL {
            let title = rule.title();
            assert!(
                !title.is_empty() && !title.contains('\n') && !title.ends_with('.'),
                "{}",
                rule.code()
            );
        }
    }

    #[test]
    fn lookup_by_code() {
        assert_eq!(Rule::from_code("sd202"), Some(Rule::UnknownOperationPath));
        assert_eq!(Rule::from_code("SD999"), None);
        assert_eq!(
            Rule::lookup("SD20"),
            Err("unknown rule code `SD20`: did you mean `SD201`?".to_owned())
        );
    }
}
