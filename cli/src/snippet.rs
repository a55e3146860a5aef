//! A located message rendered with a source snippet (miette's graphical report), for errors
//! the CLI reports about a file of the user's that is not a definition (a template file).

use std::fmt;
use std::ops::Range;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode,
};

/// One message pointing at a byte range of a named text.
#[derive(Debug)]
pub struct Snippet {
    pub code: String,
    pub message: String,
    pub help: Option<String>,
    pub label: String,
    pub source: NamedSource<String>,
    pub range: Range<usize>,
}

impl fmt::Display for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Snippet {}

impl Diagnostic for Snippet {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let len = self.range.end.saturating_sub(self.range.start);
        Some(Box::new(std::iter::once(LabeledSpan::new(
            Some(self.label.clone()),
            self.range.start,
            len,
        ))))
    }
}

impl Snippet {
    /// The report as text: colored with Unicode art, or plain ASCII for pipes and `NO_COLOR`.
    pub fn render(&self, color: bool) -> String {
        let theme = if color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
        let mut out = String::new();
        if handler.render_report(&mut out, self).is_err() {
            // Rendering into a String only fails on a formatter error; fall back to plain text.
            out = format!("{}: {}", self.code, self.message);
        }
        out
    }
}
