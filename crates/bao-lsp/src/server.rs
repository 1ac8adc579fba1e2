//! The server: initialization, the message loop, and each request's handler.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use bao_validate::CheckOptions;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentHighlightRequest, DocumentSymbolRequest,
    FoldingRangeRequest, Formatting, HoverRequest, InlayHintRequest, RangeFormatting, References,
    Rename, Request as _, SemanticTokensFullRequest, SemanticTokensRangeRequest,
    WorkspaceSymbolRequest,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    CompletionResponse, DocumentSymbolResponse, FoldingRangeProviderCapability,
    HoverProviderCapability, InitializeParams, InitializeResult, OneOf, PublishDiagnosticsParams,
    SemanticTokens, SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions,
    SemanticTokensResult, SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde::Deserialize;
use serde_json::Value;

use crate::cancel::{Incoming, Watch};
use crate::document::Document;
use crate::stdio::RAW_RESPONSE;
use crate::{actions, board, complete, format, hover, outline, workspace};

/// What stops the server.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The connection broke, or the client broke the protocol's order.
    #[error("language server protocol: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    /// The client's initialize parameters could not be read, or a reply not written.
    #[error("language server protocol: {0}")]
    Json(#[from] serde_json::Error),
    /// The stdio threads failed, or the input broke (a header that cannot be read).
    #[error("language server: {0}")]
    Io(#[from] std::io::Error),
    /// The client sent `exit` without `shutdown` first (the protocol's exit code 1).
    #[error("language server: the client sent exit without shutdown")]
    ExitWithoutShutdown,
}

/// The server's settings, from the client's `initializationOptions` (camelCase keys).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Config {
    /// Laps a move's never-ending decision may run before it is left undecided (the
    /// diagnostic `bao::budget::undecided`), for every engine call of the server. Default
    /// 100,000.
    pub lap_budget: u64,
    /// Inlay hints after each move (its laps and captures). Default off.
    pub inlay_hints: bool,
    /// The largest document (in bytes of text) whose semantic tokens are given whole
    /// (`textDocument/semanticTokens/full`); a larger one's are given only by range
    /// (`textDocument/semanticTokens/range`: the lines on screen), and a request for all
    /// of them is answered `ServerCancelled`. A whole answer takes about 1.3 times the
    /// text as JSON and far more while it is built (10 M tokens for 100 MB of records).
    /// Default 2 MiB (about 200,000 tokens).
    pub semantic_tokens_full_limit: usize,
}

/// [`Config::semantic_tokens_full_limit`]'s default.
pub const SEMANTIC_TOKENS_FULL_LIMIT: usize = 2 << 20;

impl Default for Config {
    fn default() -> Self {
        Self {
            lap_budget: 100_000,
            inlay_hints: false,
            semantic_tokens_full_limit: SEMANTIC_TOKENS_FULL_LIMIT,
        }
    }
}

impl Config {
    /// The options of the check behind the diagnostics: `bao check --lap-budget N`.
    #[must_use]
    pub fn check_options(self) -> CheckOptions {
        CheckOptions {
            assume_fixes: false,
            lap_budget: Some(self.lap_budget),
            ..CheckOptions::default()
        }
    }
}

/// Runs the server over stdin and stdout until the client exits.
///
/// # Errors
///
/// The connection broke or the client broke the protocol.
pub fn run_stdio() -> Result<(), ServerError> {
    let (connection, threads) = crate::stdio::connection();
    let served = serve(&connection, true);
    drop(connection);
    // A broken header ends the reader with its error, and the server then sees the client
    // gone (a disconnected channel: the reader has ended or is ending): the reader's error is
    // the one to give. A reader still waiting for input, after another protocol error of
    // the server, is not waited for.
    let reader_done = match &served {
        Ok(()) => true,
        Err(ServerError::Protocol(e)) => e.channel_is_disconnected() || threads.reader_finished(),
        Err(_) => threads.reader_finished(),
    };
    if reader_done {
        threads.join()?;
    }
    served
}

/// Runs the server over a connection: the initialize handshake, then every message until
/// `shutdown` and `exit` (or until the client goes away).
///
/// # Errors
///
/// The connection broke or the client broke the protocol; [`ServerError::ExitWithoutShutdown`]
/// when `exit` came without `shutdown` before it.
pub fn run(connection: &Connection) -> Result<(), ServerError> {
    serve(connection, false)
}

/// [`run`]; with `raw`, a large result goes to the connection as a [`RAW_RESPONSE`]
/// message for the stdio writer (which knows it) instead of a response holding a
/// [`Value`].
fn serve(connection: &Connection, raw: bool) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    // The workspace's folders: those given, else the root.
    #[allow(deprecated)] // `rootUri`, for clients that give no folders
    let roots: Vec<std::path::PathBuf> = match &params.workspace_folders {
        Some(folders) if !folders.is_empty() => folders
            .iter()
            .filter_map(|f| workspace::path_of(&f.uri))
            .collect(),
        _ => params
            .root_uri
            .iter()
            .filter_map(workspace::path_of)
            .collect(),
    };
    let config: Config = params
        .initialization_options
        .and_then(|o| serde_json::from_value(o).ok())
        .unwrap_or_default();
    let result = InitializeResult {
        capabilities: capabilities(),
        server_info: Some(ServerInfo {
            name: "bao lsp".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    // The diagnostics in the client's language (`locale`: `sw`, `sw-KE`), else English.
    let lang = params
        .locale
        .as_deref()
        .and_then(bao_i18n::Lang::from_tag)
        .unwrap_or_default();
    Server {
        config,
        opts: CheckOptions {
            lang,
            ..config.check_options()
        },
        docs: HashMap::new(),
        published: HashMap::new(),
        shutdown: false,
        raw,
        roots,
    }
    .main_loop(connection)
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), ".".into(), "\"".into(), "[".into()]),
            ..CompletionOptions::default()
        }),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::REFACTOR_REWRITE,
            ]),
            ..CodeActionOptions::default()
        })),
        inlay_hint_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: outline::TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: Some(true),
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// The server's state.
struct Server {
    config: Config,
    opts: CheckOptions,
    docs: HashMap<Uri, Document>,
    /// The version whose diagnostics each document last had published.
    published: HashMap<Uri, i32>,
    /// Whether `shutdown` was asked (an `exit` before it is the exit code 1).
    shutdown: bool,
    /// Whether large results go out as [`RAW_RESPONSE`] messages (over stdio).
    raw: bool,
    /// The workspace's folders (their `.bao` files are read for `workspace/symbol`,
    /// `references` and `rename`).
    roots: Vec<std::path::PathBuf>,
}

/// A handler's answer: a result, or an error code and message.
type Answer = Result<Reply, (ErrorCode, String)>;

/// A request's result: a JSON value, or JSON text written by the handler (a large answer:
/// symbols, folding ranges, formatting edits), which goes out as it is over stdio without
/// being made a [`Value`] tree first (many times the text's size).
#[derive(Debug)]
enum Reply {
    Value(Value),
    Json(String),
}

impl Server {
    /// Handles messages in batches: everything that has arrived is read into a queue and
    /// handled in order (a request running long reads what arrives meanwhile into the same
    /// queue, and stops when it is cancelled or its document changes: [`crate::cancel`]),
    /// and then each changed document's diagnostics are published once, for its latest
    /// version.
    fn main_loop(mut self, connection: &Connection) -> Result<(), ServerError> {
        let poll = || connection.receiver.try_recv().ok();
        let incoming = Incoming::new(&poll);
        loop {
            if incoming.is_empty() {
                let Ok(first) = connection.receiver.recv() else {
                    return Ok(());
                };
                incoming.push(first);
                incoming.drain();
            }
            let send = |m: Message| connection.sender.send(m).map_err(|_| closed());
            while let Some(msg) = incoming.pop() {
                match msg {
                    Message::Request(req) => {
                        if req.method == "shutdown" && !incoming.is_empty() {
                            // The exit may be queued already: it is handled from the queue.
                            self.shutdown = true;
                            send(Message::Response(Response::new_ok(req.id, ())))?;
                            continue;
                        }
                        if connection.handle_shutdown(&req)? {
                            return Ok(());
                        }
                        send(self.request(req, &incoming))?;
                    }
                    Message::Notification(n) => {
                        if n.method == "exit" {
                            if self.shutdown {
                                return Ok(());
                            }
                            return Err(ServerError::ExitWithoutShutdown);
                        }
                        self.notification(n);
                    }
                    Message::Response(_) => {}
                }
            }
            self.publish(&incoming, &send)?;
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let d = p.text_document;
                    self.published.remove(&d.uri);
                    self.docs.insert(d.uri, Document::new(d.text, d.version));
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                {
                    if let Some(doc) = self.docs.get_mut(&p.text_document.uri) {
                        // A stale change (not newer than the text held) is dropped.
                        if p.text_document.version > doc.version {
                            doc.apply(p.content_changes, p.text_document.version);
                        }
                    }
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                {
                    self.docs.remove(&p.text_document.uri);
                    self.published.remove(&p.text_document.uri);
                }
            }
            _ => {}
        }
    }

    /// Publishes the diagnostics of every document whose version has none yet, but for a
    /// document whose change (or closing) has arrived meanwhile: its diagnostics would be
    /// stale, and the next round publishes those of its new version.
    fn publish(
        &mut self,
        incoming: &Incoming<'_>,
        send: &dyn Fn(Message) -> Result<(), ServerError>,
    ) -> Result<(), ServerError> {
        let opts = self.opts;
        for (uri, doc) in &mut self.docs {
            if self.published.get(uri) == Some(&doc.version) {
                continue;
            }
            let version = doc.version;
            let diags =
                catch_unwind(AssertUnwindSafe(|| doc.diagnostics(uri, &opts))).unwrap_or_default();
            if incoming.modifies(uri.as_str()) {
                continue;
            }
            let params = PublishDiagnosticsParams::new(uri.clone(), diags, Some(version));
            let note = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
            send(Message::Notification(note))?;
            self.published.insert(uri.clone(), version);
        }
        Ok(())
    }

    /// Answers a request; a handler that panics answers `InternalError`. A request
    /// cancelled (already in the queue, or while it runs) answers `RequestCanceled`, one
    /// whose document changes while it runs `ContentModified`.
    fn request(&mut self, req: Request, incoming: &Incoming<'_>) -> Message {
        let id = req.id.clone();
        let watch = Watch::new(incoming, req.id.clone(), &req.params);
        let answer = if let Some(stop) = watch.poll() {
            Err(stop.answer())
        } else {
            catch_unwind(AssertUnwindSafe(|| self.answer(req, &watch))).unwrap_or_else(|_| {
                Err((
                    ErrorCode::InternalError,
                    "the request failed inside the server".to_owned(),
                ))
            })
        };
        let answer = match watch.stopped() {
            Some(stop) => Err(stop.answer()),
            None => answer,
        };
        match answer {
            Ok(Reply::Value(v)) => Message::Response(Response::new_ok(id, v)),
            Ok(Reply::Json(json)) if self.raw => {
                let id = serde_json::to_value(&id).unwrap_or(Value::Null);
                Message::Notification(Notification::new(
                    RAW_RESPONSE.to_owned(),
                    Value::Array(vec![id, Value::String(json)]),
                ))
            }
            Ok(Reply::Json(json)) => match serde_json::from_str::<Value>(&json) {
                Ok(v) => Message::Response(Response::new_ok(id, v)),
                Err(e) => Message::Response(Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    e.to_string(),
                )),
            },
            Err((code, message)) => Message::Response(Response::new_err(id, code as i32, message)),
        }
    }

    fn answer(&mut self, req: Request, watch: &Watch<'_, '_>) -> Answer {
        let laps = self.config.lap_budget;
        let hints = self.config.inlay_hints;
        let opts = self.opts;
        match req.method.as_str() {
            HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = params(req.params)?;
                let tp = p.text_document_position_params;
                let (doc, offset) = self.at(&tp.text_document.uri, tp.position)?;
                let Some(offset) = offset else {
                    return Ok(Reply::Value(Value::Null));
                };
                to_value(hover::hover(&doc.view(&opts), offset, laps))
            }
            Completion::METHOD => {
                let p: lsp_types::CompletionParams = params(req.params)?;
                let tp = p.text_document_position;
                let (doc, offset) = self.at(&tp.text_document.uri, tp.position)?;
                let Some(offset) = offset else {
                    return Ok(Reply::Value(Value::Null));
                };
                to_value(
                    complete::complete(&doc.view(&opts), offset, laps)
                        .map(CompletionResponse::List),
                )
            }
            Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                let v = doc.view(&opts).watched(watch);
                Ok(format::edits_json(&v, None).map_or(Reply::Value(Value::Null), Reply::Json))
            }
            RangeFormatting::METHOD => {
                let p: lsp_types::DocumentRangeFormattingParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                let v = doc.view(&opts).watched(watch);
                let start = v.index.offset_clamped(v.text, p.range.start);
                let end = v.index.offset_clamped(v.text, p.range.end).max(start);
                Ok(format::edits_json(&v, Some((start, end)))
                    .map_or(Reply::Value(Value::Null), Reply::Json))
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                to_json(DocumentSymbolResponse::Nested(outline::symbols(
                    &doc.view(&opts).watched(watch),
                )))
            }
            FoldingRangeRequest::METHOD => {
                let p: lsp_types::FoldingRangeParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                to_json(outline::folding(&doc.view(&opts).watched(watch)))
            }
            SemanticTokensFullRequest::METHOD => {
                let p: lsp_types::SemanticTokensParams = params(req.params)?;
                let limit = self.config.semantic_tokens_full_limit;
                let doc = self.doc(&p.text_document.uri)?;
                if doc.text.len() > limit {
                    // VS Code takes this error as "not available now" and goes on asking
                    // the visible range; Neovim (0.12) too. An empty answer would count
                    // as the document's tokens, and stop the range requests.
                    return Err((
                        ErrorCode::ServerCancelled,
                        format!(
                            "the document is over {limit} bytes: its semantic tokens are given \
                             by range only (textDocument/semanticTokens/range)"
                        ),
                    ));
                }
                to_value(SemanticTokensResult::Tokens(SemanticTokens {
                    result_id: None,
                    data: outline::tokens(&doc.view(&opts).watched(watch)),
                }))
            }
            SemanticTokensRangeRequest::METHOD => {
                let p: lsp_types::SemanticTokensRangeParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                let v = doc.view(&opts).watched(watch);
                let start = v.index.offset_clamped(v.text, p.range.start);
                let end = v.index.offset_clamped(v.text, p.range.end).max(start);
                to_value(SemanticTokensResult::Tokens(SemanticTokens {
                    result_id: None,
                    data: outline::tokens_over(&v, start, end),
                }))
            }
            CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams = params(req.params)?;
                let uri = p.text_document.uri;
                let doc = self.doc(&uri)?;
                let v = doc.view(&opts);
                let Some(start) = v.index.offset(v.text, p.range.start) else {
                    return Ok(Reply::Value(Value::Null));
                };
                let end = v.index.offset_clamped(v.text, p.range.end).max(start);
                to_value(actions::actions(&v, &uri, start, end))
            }
            InlayHintRequest::METHOD => {
                let p: lsp_types::InlayHintParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                if !hints {
                    return to_value(Vec::<lsp_types::InlayHint>::new());
                }
                let v = doc.view(&opts);
                let start = v.index.offset_clamped(v.text, p.range.start);
                let end = v.index.offset_clamped(v.text, p.range.end);
                to_value(outline::hints(&v, start, end))
            }
            DocumentHighlightRequest::METHOD => {
                let p: lsp_types::DocumentHighlightParams = params(req.params)?;
                let tp = p.text_document_position_params;
                let (doc, offset) = self.at(&tp.text_document.uri, tp.position)?;
                let Some(offset) = offset else {
                    return Ok(Reply::Value(Value::Null));
                };
                to_value(outline::highlights(&doc.view(&opts), offset))
            }
            WorkspaceSymbolRequest::METHOD => {
                let p: lsp_types::WorkspaceSymbolParams = params(req.params)?;
                let open = self.docs.iter().map(|(u, d)| (u, d.text.as_str()));
                to_json(lsp_types::WorkspaceSymbolResponse::Flat(
                    workspace::symbols(open, &self.roots, &p.query),
                ))
            }
            References::METHOD => {
                let p: lsp_types::ReferenceParams = params(req.params)?;
                let tp = p.text_document_position;
                let Some((kind, value)) = self.followed_tag(&tp)? else {
                    return Ok(Reply::Value(Value::Null));
                };
                let open = self.docs.iter().map(|(u, d)| (u, d.text.as_str()));
                let found = workspace::tags_like(open, &self.roots, &kind, &value);
                to_json(
                    found
                        .into_iter()
                        .map(|(uri, range)| lsp_types::Location::new(uri, range))
                        .collect::<Vec<_>>(),
                )
            }
            Rename::METHOD => {
                let p: lsp_types::RenameParams = params(req.params)?;
                let tp = p.text_document_position;
                let Some((kind, value)) = self.followed_tag(&tp)? else {
                    return Err((
                        ErrorCode::InvalidParams,
                        "rename works on the value of a South, North, Event or Site tag".to_owned(),
                    ));
                };
                let open = self.docs.iter().map(|(u, d)| (u, d.text.as_str()));
                let found = workspace::tags_like(open, &self.roots, &kind, &value);
                to_json(lsp_types::WorkspaceEdit {
                    changes: Some(workspace::rename_edits(found, &p.new_name)),
                    ..lsp_types::WorkspaceEdit::default()
                })
            }
            board::METHOD => {
                let p: board::Params = params(req.params)?;
                let (doc, offset) = self.at(&p.text_document.uri, p.position)?;
                let Some(offset) = offset else {
                    return Ok(Reply::Value(Value::Null));
                };
                to_value(board::board_at(&doc.view(&opts), offset))
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("bao lsp does not handle {}", req.method),
            )),
        }
    }

    fn doc(&mut self, uri: &Uri) -> Result<&mut Document, (ErrorCode, String)> {
        self.docs.get_mut(uri).ok_or_else(|| {
            (
                ErrorCode::InvalidParams,
                format!("{} is not open", uri.as_str()),
            )
        })
    }

    /// The kind (`player`, `Event`, `Site`) and value of the followed tag at a position of
    /// an open document, if the position is in such a tag pair.
    fn followed_tag(
        &mut self,
        tp: &lsp_types::TextDocumentPositionParams,
    ) -> Result<Option<(String, String)>, (ErrorCode, String)> {
        let (doc, offset) = self.at(&tp.text_document.uri, tp.position)?;
        Ok(offset.and_then(|o| workspace::followed_tag_at(&doc.text, o)))
    }

    /// The document and the byte offset of a position in it (`None` past its end).
    fn at(
        &mut self,
        uri: &Uri,
        pos: lsp_types::Position,
    ) -> Result<(&mut Document, Option<usize>), (ErrorCode, String)> {
        let doc = self.doc(uri)?;
        let offset = doc.index.offset(&doc.text, pos);
        Ok((doc, offset))
    }
}

fn params<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(v).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn to_value<T: serde::Serialize>(v: T) -> Answer {
    serde_json::to_value(v)
        .map(Reply::Value)
        .map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// A large result as JSON text ([`Reply::Json`]).
fn to_json<T: serde::Serialize>(v: T) -> Answer {
    serde_json::to_string(&v)
        .map(Reply::Json)
        .map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

fn closed() -> ServerError {
    ServerError::Io(std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        "the client's connection is closed",
    ))
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::collections::VecDeque;

    use lsp_server::RequestId;
    use lsp_types::notification::Cancel;
    use serde_json::json;

    use super::*;

    const URI: &str = "file:///archive.bao";

    /// A server with a document of `games` games (one chunk each), checked.
    fn server(games: usize) -> Server {
        let text: String = (0..games)
            .map(|n| format!("[Event \"g{n}\"]\n\n1. A6<* a6>* *\n\n"))
            .collect();
        let mut s = Server {
            config: Config::default(),
            opts: Config::default().check_options(),
            docs: HashMap::new(),
            published: HashMap::new(),
            shutdown: false,
            raw: false,
            roots: Vec::new(),
        };
        s.notification(note(
            DidOpenTextDocument::METHOD,
            json!({"textDocument": {"uri": URI, "languageId": "bao", "version": 1, "text": text}}),
        ));
        let uri: Uri = URI.parse().unwrap();
        let opts = s.opts;
        assert_eq!(
            s.docs
                .get_mut(&uri)
                .unwrap()
                .view(&opts)
                .analysis
                .chunks
                .len(),
            games
        );
        s
    }

    fn note(method: &str, params: Value) -> Notification {
        Notification::new(method.to_owned(), params)
    }

    fn change(text: &str) -> Message {
        Message::Notification(note(
            DidChangeTextDocument::METHOD,
            json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": text}]}),
        ))
    }

    /// A source of messages that gives `arrive` in order from its `at`-th poll on (one
    /// at each poll), and counts the polls.
    struct Source {
        polls: Cell<usize>,
        at: usize,
        arrive: RefCell<VecDeque<Message>>,
    }

    impl Source {
        fn new(at: usize, arrive: Vec<Message>) -> Self {
            Self {
                polls: Cell::new(0),
                at,
                arrive: RefCell::new(arrive.into()),
            }
        }

        fn poll(&self) -> Option<Message> {
            self.polls.set(self.polls.get() + 1);
            if self.polls.get() < self.at {
                return None;
            }
            self.arrive.borrow_mut().pop_front()
        }
    }

    /// Handles what is queued as the main loop does, and publishes: the notifications sent.
    fn handle_queue(s: &mut Server, incoming: &Incoming<'_>) -> Vec<Message> {
        while let Some(m) = incoming.pop() {
            if let Message::Notification(n) = m {
                s.notification(n);
            }
        }
        let sent = RefCell::new(Vec::new());
        s.publish(incoming, &|m| {
            sent.borrow_mut().push(m);
            Ok(())
        })
        .unwrap();
        sent.into_inner()
    }

    fn request(id: i32, method: &str) -> Request {
        Request::new(
            RequestId::from(id),
            method.to_owned(),
            json!({"textDocument": {"uri": URI}}),
        )
    }

    fn error_code(r: &Message) -> Option<i32> {
        let Message::Response(r) = r else {
            panic!("no response: {r:?}")
        };
        r.response_result.as_ref().err().map(|e| e.code)
    }

    /// The diagnostics published for version 2 of the document.
    fn published_v2(sent: &[Message]) -> Vec<lsp_types::Diagnostic> {
        let [Message::Notification(n)] = sent else {
            panic!("one publication expected: {sent:?}");
        };
        assert_eq!(n.method, PublishDiagnostics::METHOD);
        let p: PublishDiagnosticsParams = serde_json::from_value(n.params.clone()).unwrap();
        assert_eq!(p.version, Some(2));
        p.diagnostics
    }

    #[test]
    fn a_cancel_arriving_mid_request_stops_it_and_what_came_is_handled_after() {
        let games = 60;
        let mut s = server(games);
        let slip = "1. A5<* *\n";
        let cancel = note(Cancel::METHOD, json!({"id": 7}));
        // The cancel arrives at the 10th poll (one poll before the request, then one per
        // chunk), a change right behind it.
        let source = Source::new(10, vec![Message::Notification(cancel), change(slip)]);
        let poll = || source.poll();
        let incoming = Incoming::new(&poll);
        let r = s.request(request(7, DocumentSymbolRequest::METHOD), &incoming);
        assert_eq!(error_code(&r), Some(ErrorCode::RequestCanceled as i32));
        // The loop stopped there: two more polls read the change and found nothing more.
        assert_eq!(source.polls.get(), 12);
        assert_eq!(incoming.len(), 2);
        // The queued messages are handled next: the change's diagnostics are published.
        let diags = published_v2(&handle_queue(&mut s, &incoming));
        let mut expected = Document::new(slip.to_owned(), 2);
        let expected = expected.diagnostics(&URI.parse().unwrap(), &s.opts);
        assert!(!expected.is_empty());
        assert_eq!(diags, expected);
        // A cancel for another request does not stop this one.
        let mut s = server(10);
        let source = Source::new(
            3,
            vec![Message::Notification(note(
                Cancel::METHOD,
                json!({"id": 99}),
            ))],
        );
        let poll = || source.poll();
        let incoming = Incoming::new(&poll);
        let r = s.request(request(8, FoldingRangeRequest::METHOD), &incoming);
        assert_eq!(error_code(&r), None);
        assert_eq!(incoming.len(), 1);
    }

    #[test]
    fn a_change_arriving_mid_request_answers_content_modified() {
        let games = 40;
        for method in [
            DocumentSymbolRequest::METHOD,
            FoldingRangeRequest::METHOD,
            SemanticTokensFullRequest::METHOD,
        ] {
            let mut s = server(games);
            let source = Source::new(5, vec![change("[Event \"new\"]\n\n1. A6<* *\n")]);
            let poll = || source.poll();
            let incoming = Incoming::new(&poll);
            let r = s.request(request(1, method), &incoming);
            assert_eq!(
                error_code(&r),
                Some(ErrorCode::ContentModified as i32),
                "{method}"
            );
            assert!(source.polls.get() < games, "{method}: not stopped");
            assert!(published_v2(&handle_queue(&mut s, &incoming)).is_empty());
        }
    }

    #[test]
    fn a_cancel_queued_before_the_request_runs_stops_it_at_once() {
        let mut s = server(3);
        let source = Source::new(usize::MAX, Vec::new());
        let poll = || source.poll();
        let incoming = Incoming::new(&poll);
        incoming.push(Message::Notification(note(
            Cancel::METHOD,
            json!({"id": "h"}),
        )));
        let mut req = request(0, HoverRequest::METHOD);
        req.id = RequestId::from("h".to_owned());
        let r = s.request(req, &incoming);
        assert_eq!(error_code(&r), Some(ErrorCode::RequestCanceled as i32));
    }

    #[test]
    fn a_change_arriving_while_diagnostics_are_made_drops_the_stale_ones() {
        let mut s = server(5);
        let source = Source::new(1, vec![change("1. A5<* *\n")]);
        let poll = || source.poll();
        let incoming = Incoming::new(&poll);
        // Version 1's diagnostics are not published: version 2 has arrived.
        let sent = handle_queue(&mut s, &incoming);
        assert!(sent.is_empty(), "{sent:?}");
        assert!(!published_v2(&handle_queue(&mut s, &incoming)).is_empty());
    }
}
