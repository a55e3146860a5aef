//! Everything the command prints, passed through redaction by value: a defence in depth
//! behind the libraries' own masking. Whatever a library missed (a message built from a
//! server's answer, a log field), a secret the process holds is not printed.

use std::io::{self, Write};

use tracing_subscriber::fmt::MakeWriter;

/// `text` as it may be printed: every secret the process holds replaced by `***`.
pub fn text(text: &str) -> std::borrow::Cow<'_, str> {
    syncdef_secrets::redact(text)
}

/// A `tracing` writer that redacts every line before writing it to `inner`. The formatter
/// writes one event per `write` call, so a secret is never split across two calls.
pub struct Redacting<M>(pub M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Redacting<M> {
    type Writer = RedactingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter(self.0.make_writer())
    }
}

/// One event's writer of [`Redacting`].
pub struct RedactingWriter<W>(W);

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let line = String::from_utf8_lossy(buf);
        self.0.write_all(text(&line).as_bytes())?;
        // The whole buffer is consumed: what was written stands for all of it.
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_are_redacted() {
        let _held = syncdef_secrets::Secret::new("log-secret-2f7c");
        let mut out = Vec::new();
        {
            let mut writer = RedactingWriter(&mut out);
            writer
                .write_all(b"WARN push failed error=\"echo log-secret-2f7c\"\n")
                .expect("write");
        }
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "WARN push failed error=\"echo ***\"\n"
        );
    }
}
