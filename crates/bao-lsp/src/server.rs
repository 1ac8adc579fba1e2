//! The server: initialization, the message loop, and each request's handler.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, AssertUnwindSafe};

use bao_notation::{parse_record, write_record, WriteOptions};
use bao_validate::CheckOptions;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    Cancel, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting,
    HoverRequest, InlayHintRequest, Request as _, SemanticTokensFullRequest,
    SemanticTokensRangeRequest,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    CompletionResponse, DocumentSymbolResponse, FoldingRangeProviderCapability,
    HoverProviderCapability, InitializeParams, InitializeResult, NumberOrString, OneOf,
    PublishDiagnosticsParams, SemanticTokens, SemanticTokensFullOptions, SemanticTokensLegend,
    SemanticTokensOptions, SemanticTokensResult, SemanticTokensServerCapabilities,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit,
    Uri,
};
use serde::Deserialize;
use serde_json::Value;

use crate::document::Document;
use crate::{actions, complete, hover, outline};

/// What stops the server.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The connection broke, or the client broke the protocol's order.
    #[error("language server protocol: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    /// The client's initialize parameters could not be read, or a reply not written.
    #[error("language server protocol: {0}")]
    Json(#[from] serde_json::Error),
    /// The stdio threads failed.
    #[error("language server: {0}")]
    Io(#[from] std::io::Error),
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
    run(&connection)?;
    drop(connection);
    threads.join()?;
    Ok(())
}

/// Runs the server over a connection: the initialize handshake, then every message until
/// `shutdown` and `exit` (or until the client goes away).
///
/// # Errors
///
/// The connection broke or the client broke the protocol.
pub fn run(connection: &Connection) -> Result<(), ServerError> {
    let (id, params) = connection.initialize_start()?;
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
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
    Server {
        config,
        opts: config.check_options(),
        docs: HashMap::new(),
        published: HashMap::new(),
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
}

/// A handler's answer: a result, or an error code and message.
type Answer = Result<Value, (ErrorCode, String)>;

impl Server {
    /// Handles messages in batches: everything that has arrived is read, cancelled
    /// requests are answered as such, the rest handled in order, and then each changed
    /// document's diagnostics are published once, for its latest version.
    fn main_loop(mut self, connection: &Connection) -> Result<(), ServerError> {
        while let Ok(first) = connection.receiver.recv() {
            let mut batch = vec![first];
            batch.extend(connection.receiver.try_iter());
            let cancelled: HashSet<RequestId> = batch.iter().filter_map(cancel_id).collect();
            for msg in batch {
                match msg {
                    Message::Request(req) => {
                        if connection.handle_shutdown(&req)? {
                            return Ok(());
                        }
                        let resp = if cancelled.contains(&req.id) {
                            Response::new_err(
                                req.id,
                                ErrorCode::RequestCanceled as i32,
                                "cancelled".to_owned(),
                            )
                        } else {
                            self.request(req)
                        };
                        connection
                            .sender
                            .send(Message::Response(resp))
                            .map_err(|_| closed())?;
                    }
                    Message::Notification(n) => {
                        if n.method == "exit" {
                            return Ok(());
                        }
                        self.notification(n);
                    }
                    Message::Response(_) => {}
                }
            }
            self.publish(connection)?;
        }
        Ok(())
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

    /// Publishes the diagnostics of every document whose version has none yet.
    fn publish(&mut self, connection: &Connection) -> Result<(), ServerError> {
        let opts = self.opts;
        for (uri, doc) in &mut self.docs {
            if self.published.get(uri) == Some(&doc.version) {
                continue;
            }
            let version = doc.version;
            let diags =
                catch_unwind(AssertUnwindSafe(|| doc.diagnostics(uri, &opts))).unwrap_or_default();
            let params = PublishDiagnosticsParams::new(uri.clone(), diags, Some(version));
            let note = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
            connection
                .sender
                .send(Message::Notification(note))
                .map_err(|_| closed())?;
            self.published.insert(uri.clone(), version);
        }
        Ok(())
    }

    /// Answers a request; a handler that panics answers `InternalError`.
    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let answer = catch_unwind(AssertUnwindSafe(|| self.answer(req))).unwrap_or_else(|_| {
            Err((
                ErrorCode::InternalError,
                "the request failed inside the server".to_owned(),
            ))
        });
        match answer {
            Ok(v) => Response::new_ok(id, v),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn answer(&mut self, req: Request) -> Answer {
        let laps = self.config.lap_budget;
        let hints = self.config.inlay_hints;
        let opts = self.opts;
        match req.method.as_str() {
            HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = params(req.params)?;
                let tp = p.text_document_position_params;
                let (doc, offset) = self.at(&tp.text_document.uri, tp.position)?;
                let Some(offset) = offset else {
                    return Ok(Value::Null);
                };
                to_value(hover::hover(&doc.view(&opts), offset, laps))
            }
            Completion::METHOD => {
                let p: lsp_types::CompletionParams = params(req.params)?;
                let tp = p.text_document_position;
                let (doc, offset) = self.at(&tp.text_document.uri, tp.position)?;
                let Some(offset) = offset else {
                    return Ok(Value::Null);
                };
                to_value(
                    complete::complete(&doc.view(&opts), offset, laps)
                        .map(CompletionResponse::List),
                )
            }
            Formatting::METHOD => {
                let p: lsp_types::DocumentFormattingParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                to_value(format(doc))
            }
            DocumentSymbolRequest::METHOD => {
                let p: lsp_types::DocumentSymbolParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                to_value(DocumentSymbolResponse::Nested(outline::symbols(
                    &doc.view(&opts),
                )))
            }
            FoldingRangeRequest::METHOD => {
                let p: lsp_types::FoldingRangeParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                to_value(outline::folding(&doc.view(&opts)))
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
                    data: outline::tokens(&doc.view(&opts)),
                }))
            }
            SemanticTokensRangeRequest::METHOD => {
                let p: lsp_types::SemanticTokensRangeParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri)?;
                let v = doc.view(&opts);
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
                    return Ok(Value::Null);
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

/// The edits of `bao fmt`: none for a record with syntax errors (it is not formatted) or
/// one already canonical; else one edit replacing the whole text.
fn format(doc: &Document) -> Option<Vec<TextEdit>> {
    let parsed = parse_record(&doc.text);
    if parsed.has_errors() {
        return None;
    }
    let canonical = write_record(&parsed.record, &WriteOptions::default());
    if canonical == doc.text {
        return Some(Vec::new());
    }
    let range = doc.index.range(&doc.text, 0, doc.text.len());
    Some(vec![TextEdit::new(range, canonical)])
}

fn params<T: serde::de::DeserializeOwned>(v: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(v).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn to_value<T: serde::Serialize>(v: T) -> Answer {
    serde_json::to_value(v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// The request a `$/cancelRequest` names.
fn cancel_id(m: &Message) -> Option<RequestId> {
    let Message::Notification(n) = m else {
        return None;
    };
    if n.method != Cancel::METHOD {
        return None;
    }
    let p: lsp_types::CancelParams = serde_json::from_value(n.params.clone()).ok()?;
    Some(match p.id {
        NumberOrString::Number(n) => RequestId::from(n),
        NumberOrString::String(s) => RequestId::from(s),
    })
}

fn closed() -> ServerError {
    ServerError::Io(std::io::Error::new(
        std::io::ErrorKind::BrokenPipe,
        "the client's connection is closed",
    ))
}
