//! The transport over stdin and stdout: messages framed by `Content-Length` headers, read
//! leniently. `lsp_server`'s own stdio transport stops the server at the first message that
//! is not UTF-8 or not JSON; this one reads such a message's bytes as text with replacement
//! characters, drops a message that is still no JSON-RPC message (saying so on stderr) and
//! goes on. Only a broken frame (a header that cannot be read) ends the input.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};
use serde_json::Value;

/// The method of the message the server gives the stdio writer for a response whose
/// result is JSON text already (a `Reply::Json` of the server): its parameters are the id and the text;
/// the writer frames `{"jsonrpc":"2.0","id":…,"result":…}` around them. It never goes on
/// the wire as a notification.
pub(crate) const RAW_RESPONSE: &str = "\u{0}bao/rawResponse";

/// The largest message read (a 100 MB archive opened whole fits; a larger `Content-Length`
/// is read past and dropped).
const MAX_MESSAGE: usize = 512 << 20;

/// The threads of the transport.
#[derive(Debug)]
pub(crate) struct Threads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Whether the reader has ended (the input ended, broke, or gave `exit`).
    pub(crate) fn reader_finished(&self) -> bool {
        self.reader.is_finished()
    }

    /// Waits for both threads; the reader's error first.
    pub(crate) fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reader thread panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")));
        reader.and(writer)
    }
}

/// A connection over stdin and stdout.
pub(crate) fn connection() -> (Connection, Threads) {
    let (to_writer, from_server) = bounded::<Message>(0);
    let (to_server, from_reader) = bounded::<Message>(0);
    let writer = thread::spawn(move || {
        let stdout = io::stdout();
        let mut out = stdout.lock();
        for msg in from_server {
            match msg {
                Message::Notification(n) if n.method == RAW_RESPONSE => {
                    write_raw(&mut out, &n.params)?;
                }
                msg => msg.write(&mut out)?,
            }
            out.flush()?;
        }
        Ok(())
    });
    let replies = to_writer.clone();
    let reader = thread::spawn(move || read_all(&mut io::stdin().lock(), &to_server, &replies));
    (
        Connection {
            sender: to_writer,
            receiver: from_reader,
        },
        Threads { reader, writer },
    )
}

/// Writes a response whose result is JSON text already: the parameters of a
/// [`RAW_RESPONSE`] message, its id and the text, framed as the response they stand for
/// (the text is written as it is, not copied).
fn write_raw(out: &mut impl Write, params: &Value) -> io::Result<()> {
    let (Some(id), Some(Value::String(result))) = (params.get(0), params.get(1)) else {
        return Err(io::Error::other("a raw response without its id and result"));
    };
    let head = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":");
    let len = head.len() + result.len() + 1;
    write!(out, "Content-Length: {len}\r\n\r\n{head}")?;
    out.write_all(result.as_bytes())?;
    out.write_all(b"}")
}

/// Reads messages until the input ends, the server stops listening, or a frame breaks. A
/// message with an `id` and no `method` (and no `result` or `error`: no response either) is
/// answered `InvalidRequest` on `replies`.
fn read_all(
    input: &mut impl BufRead,
    to_server: &Sender<Message>,
    replies: &Sender<Message>,
) -> io::Result<()> {
    while let Some(body) = read_frame(input)? {
        let Some(body) = body else {
            eprintln!("bao lsp: a message over {MAX_MESSAGE} bytes was dropped");
            continue;
        };
        let text = String::from_utf8_lossy(&body);
        match serde_json::from_str::<Message>(&text) {
            Ok(msg) => {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if to_server.send(msg).is_err() || exit {
                    return Ok(());
                }
            }
            Err(e) => match invalid_request(&text) {
                Some(id) => {
                    let reply = Response::new_err(
                        id,
                        ErrorCode::InvalidRequest as i32,
                        "a request needs a method".to_owned(),
                    );
                    if replies.send(Message::Response(reply)).is_err() {
                        return Ok(());
                    }
                }
                None => {
                    eprintln!("bao lsp: a message that is no JSON-RPC message was dropped: {e}");
                }
            },
        }
    }
    Ok(())
}

/// The id of a message that has one but is neither a request nor a notification (no
/// `method`) nor a response (no `result`, no `error`): an invalid request, answered
/// `InvalidRequest` with that id.
fn invalid_request(text: &str) -> Option<RequestId> {
    let Ok(Value::Object(msg)) = serde_json::from_str::<Value>(text) else {
        return None;
    };
    if msg.contains_key("method") || msg.contains_key("result") || msg.contains_key("error") {
        return None;
    }
    serde_json::from_value(msg.get("id")?.clone()).ok()
}

/// One frame's body: `None` at the end of the input, `Some(None)` for a body over
/// [`MAX_MESSAGE`] (read past).
fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Option<Vec<u8>>>> {
    let mut length = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if input
            .by_ref()
            .take(64 * 1024)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(None);
        }
        let header = String::from_utf8_lossy(&line);
        let header = header.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a broken header: {header:?}"),
            ));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            length = Some(value.trim().parse::<usize>().map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a broken header: {header:?}: the length is no number ({e})"),
                )
            })?);
        }
    }
    let n = length.unwrap_or(0);
    if n > MAX_MESSAGE {
        let skipped = io::copy(&mut input.by_ref().take(n as u64), &mut io::sink())?;
        if skipped < n as u64 {
            return Ok(None);
        }
        return Ok(Some(None));
    }
    let mut body = vec![0; n];
    input.read_exact(&mut body)?;
    Ok(Some(Some(body)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossbeam_channel::Receiver;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        v.extend_from_slice(body);
        v
    }

    #[test]
    fn bad_messages_are_dropped_and_the_rest_read() {
        let mut input = Vec::new();
        input.extend(frame(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"a\",\"params\":{\"t\":\"\xff\xfe\"}}",
        ));
        input.extend(frame(b"not json"));
        input.extend(frame(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"b\",\"params\":{\"t\":\"\\ud800\"}}",
        ));
        input.extend(frame(
            b"{\"jsonrpc\":\"2.0\",\"method\":\"c\",\"params\":null}",
        ));
        let (tx, rx): (Sender<Message>, Receiver<Message>) = crossbeam_channel::unbounded();
        read_all(&mut input.as_slice(), &tx, &tx).unwrap();
        let got: Vec<String> = rx
            .try_iter()
            .map(|m| match m {
                Message::Notification(n) => {
                    format!("{} {}", n.method, n.params)
                }
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[0].starts_with("a ") && got[0].contains('\u{FFFD}'),
            "{got:?}"
        );
        assert!(got[1].starts_with("c "), "{got:?}");
    }

    #[test]
    fn a_broken_header_ends_the_input_with_an_error() {
        let input = b"Content-Length 12\r\n\r\n{}".to_vec();
        let (tx, _rx) = crossbeam_channel::unbounded();
        assert!(read_all(&mut input.as_slice(), &tx, &tx).is_err());
        let input = b"Content-Length: abc\r\n\r\n{}".to_vec();
        let e = read_all(&mut input.as_slice(), &tx, &tx).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("\"Content-Length: abc\""), "{e}");
    }

    #[test]
    fn an_id_without_a_method_is_an_invalid_request() {
        let mut input = Vec::new();
        input.extend(frame(br#"{"jsonrpc":"2.0","id":77}"#));
        input.extend(frame(br#"{"jsonrpc":"2.0","id":"x","params":{}}"#));
        // A response (to a request the server never made) is no invalid request.
        input.extend(frame(br#"{"jsonrpc":"2.0","id":78,"result":null}"#));
        // No id: nothing can be answered.
        input.extend(frame(br#"{"jsonrpc":"2.0","params":{}}"#));
        let (tx, _rx) = crossbeam_channel::unbounded();
        let (replies, answered) = crossbeam_channel::unbounded();
        read_all(&mut input.as_slice(), &tx, &replies).unwrap();
        let got: Vec<(String, i32)> = answered
            .try_iter()
            .map(|m| match m {
                Message::Response(r) => (r.id.to_string(), r.response_result.unwrap_err().code),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            got,
            [("77".to_owned(), -32600), ("\"x\"".to_owned(), -32600)]
        );
    }

    /// A raw response is framed as the response it stands for: read back, it is that
    /// response.
    #[test]
    fn a_raw_response_is_written_as_its_response() {
        let result = r#"[{"name":"Ali – Juma","kind":24}]"#;
        let params = Value::Array(vec![Value::from(7), Value::String(result.to_owned())]);
        let mut out = Vec::new();
        write_raw(&mut out, &params).unwrap();
        let body = read_frame(&mut out.as_slice()).unwrap().unwrap().unwrap();
        let Message::Response(r) = serde_json::from_slice::<Message>(&body).unwrap() else {
            panic!("no response");
        };
        assert_eq!(r.id, RequestId::from(7));
        let v = r.response_result.unwrap();
        assert_eq!(v, serde_json::from_str::<Value>(result).unwrap());
    }
}
