//! The transport over stdin and stdout: messages framed by `Content-Length` headers, read
//! leniently. `lsp_server`'s own stdio transport stops the server at the first message that
//! is not UTF-8 or not JSON; this one reads such a message's bytes as text with replacement
//! characters, drops a message that is still no JSON-RPC message (saying so on stderr) and
//! goes on. Only a broken frame (a header that cannot be read) ends the input.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{bounded, Sender};
use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The method of the message the server gives the stdio writer for a response whose
/// result is JSON text already (a `Reply::Json` of the server): its parameters are the id and the text;
/// the writer frames `{"jsonrpc":"2.0","id":…,"result":…}` around them. It never goes on
/// the wire as a notification.
pub(crate) const RAW_RESPONSE: &str = "\u{0}bao/rawResponse";

/// The largest message read (a 100 MB archive opened whole fits; a larger `Content-Length`
/// is read past and dropped).
const MAX_MESSAGE: usize = 512 << 20;

/// A body this large is read by [`large_message`] (its long strings unescaped once, into
/// their final place); a smaller one by `serde_json` as it is.
const LARGE: usize = 1 << 20;

/// A string of a large body this long is unescaped by [`unescape`]; a shorter one by
/// `serde_json`.
const LONG_STRING: usize = 64 << 10;

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
        if body.len() >= LARGE {
            if let Some(msg) = large_message(&body) {
                // The body goes before the message is handed on: a document's text is held
                // once, not twice, while the server reads it.
                drop(body);
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if to_server.send(msg).is_err() || exit {
                    return Ok(());
                }
                continue;
            }
        }
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

/// A large body (a document opened or replaced whole) as a message, or `None` when it is not
/// valid UTF-8 or not a JSON-RPC message (then it is read as any other body). `serde_json`
/// reads a string with escapes (a document's text has a `\n` on every line) into a buffer
/// of its own and then copies it, so that a 20 MB text took the body, that buffer and the
/// string at once (60 MB); here each long string is unescaped straight into its `String`
/// from the body (40 MB), and the rest of the message read by `serde_json`.
fn large_message(body: &[u8]) -> Option<Message> {
    let text = std::str::from_utf8(body).ok()?;
    let raw: &RawValue = serde_json::from_str(text).ok()?;
    serde_json::from_value(value_of(raw, 0)?).ok()
}

/// The JSON value `raw`, its strings over [`LONG_STRING`] bytes unescaped by [`unescape`];
/// objects and arrays are taken apart down to `depth` 4 (the text of `didOpen` and
/// `didChange` is at depth 2 and 3), deeper ones read whole by `serde_json`: every byte is
/// read a bounded number of times.
fn value_of(raw: &RawValue, depth: usize) -> Option<Value> {
    let json = raw.get();
    match json.as_bytes().first()? {
        b'"' if json.len() > LONG_STRING => unescape(json).map(Value::String),
        b'{' if depth < 4 => {
            let fields: std::collections::BTreeMap<String, &RawValue> =
                serde_json::from_str(json).ok()?;
            let mut map = Map::new();
            for (k, v) in fields {
                map.insert(k, value_of(v, depth + 1)?);
            }
            Some(Value::Object(map))
        }
        b'[' if depth < 4 => {
            let items: Vec<&RawValue> = serde_json::from_str(json).ok()?;
            items
                .into_iter()
                .map(|v| value_of(v, depth + 1))
                .collect::<Option<Vec<_>>>()
                .map(Value::Array)
        }
        _ => serde_json::from_str(json).ok(),
    }
}

/// A JSON string literal (quotes included, valid JSON: `serde_json` has read it as a raw
/// value) unescaped, or `None` for an escape `serde_json` would refuse (a lone surrogate).
fn unescape(json: &str) -> Option<String> {
    let inner = json.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(i) = memchr::memchr(b'\\', rest.as_bytes()) {
        out.push_str(&rest[..i]);
        let (c, used) = match rest.as_bytes().get(i + 1)? {
            b'"' => ('"', 2),
            b'\\' => ('\\', 2),
            b'/' => ('/', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'n' => ('\n', 2),
            b'r' => ('\r', 2),
            b't' => ('\t', 2),
            b'u' => {
                let hex = |at: usize| u32::from_str_radix(rest.get(at..at + 4)?, 16).ok();
                let hi = hex(i + 2)?;
                if (0xD800..0xDC00).contains(&hi) {
                    if rest.get(i + 6..i + 8)? != "\\u" {
                        return None;
                    }
                    let lo = hex(i + 8)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return None;
                    }
                    (
                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))?,
                        12,
                    )
                } else {
                    (char::from_u32(hi)?, 6)
                }
            }
            _ => return None,
        };
        out.push(c);
        rest = &rest[i + used..];
    }
    out.push_str(rest);
    Some(out)
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

    /// A large body is read as `serde_json` reads it: every escape of JSON in a long text,
    /// short strings, numbers, nested objects and arrays; a body `serde_json` refuses (a lone
    /// surrogate) is left to the ordinary path.
    #[test]
    fn a_large_body_is_read_as_serde_json_reads_it() {
        let line = "1. A6<* a5>* {\"quoted\" \\ / tab\t cr\r é 😀 \u{8}\u{c}}\n";
        let text = line.repeat(LARGE / line.len() + 1);
        let did_open = serde_json::json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {"textDocument": {
                "uri": "file:///a.bao", "languageId": "bao", "version": 3, "text": text,
            }},
        });
        let did_change = serde_json::json!({
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": "file:///a.bao", "version": 4},
                "contentChanges": [{"text": text}, {"range": {
                    "start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 2},
                }, "text": "x"}],
            },
        });
        let request = serde_json::json!({
            "jsonrpc": "2.0", "id": 9, "method": "workspace/executeCommand",
            "params": {"command": "x", "arguments": [[[[[text.clone()]]]], -1.5, null, true]},
        });
        for value in [did_open, did_change, request] {
            let mut body = serde_json::to_vec(&value).unwrap();
            // serde_json writes `/` and non-ASCII as they are: escape some as \u and \/.
            let escaped = String::from_utf8(body)
                .unwrap()
                .replacen("é", "\\u00e9", 3)
                .replacen("😀", "\\ud83d\\ude00", 3)
                .replacen('/', "\\/", 5);
            body = escaped.into_bytes();
            assert!(body.len() >= LARGE);
            let expected: Message = serde_json::from_slice(&body).unwrap();
            let got = large_message(&body).expect("read");
            assert_eq!(
                serde_json::to_value(&got).unwrap(),
                serde_json::to_value(&expected).unwrap()
            );
        }
        let lone = format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":[\"{}\\ud83d\"]}}",
            "a".repeat(LARGE)
        );
        assert!(serde_json::from_str::<Message>(&lone).is_err());
        assert!(large_message(lone.as_bytes()).is_none());
        assert_eq!(unescape("\"\\ude00\""), None);
        assert_eq!(unescape("\"a\\u00e9\\n\"").as_deref(), Some("aé\n"));
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
