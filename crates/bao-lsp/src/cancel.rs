//! Cooperative interruption of a request that is already running.
//!
//! The server handles one message at a time. While a long request runs (the loops over a
//! document's chunks: symbols, folding, semantic tokens), it polls the connection without
//! blocking at every chunk: every message read is kept, in order, in the [`Incoming`]
//! queue that the main loop handles next (nothing is lost or reordered), and the request
//! stops when one of them is a `$/cancelRequest` naming it (answered `RequestCanceled`) or
//! a `didChange`/`didClose` of its document (answered `ContentModified`: its answer would
//! be stale). A cancellation already in the queue when a request starts stops it before
//! it runs.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use lsp_server::{ErrorCode, Message, RequestId};
use lsp_types::notification::{
    Cancel, DidChangeTextDocument, DidCloseTextDocument, Notification as _,
};
use lsp_types::{CancelParams, NumberOrString};
use serde_json::Value;

/// The messages read from the connection and not yet handled, and how to read more
/// without blocking.
pub(crate) struct Incoming<'a> {
    queue: RefCell<VecDeque<Message>>,
    poll: &'a dyn Fn() -> Option<Message>,
}

impl std::fmt::Debug for Incoming<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Incoming")
            .field("queue", &self.queue.borrow().len())
            .finish_non_exhaustive()
    }
}

impl<'a> Incoming<'a> {
    /// An empty queue over a source that gives what has arrived, `None` when nothing has.
    pub(crate) fn new(poll: &'a dyn Fn() -> Option<Message>) -> Self {
        Self {
            queue: RefCell::default(),
            poll,
        }
    }

    /// Adds a message at the end of the queue.
    pub(crate) fn push(&self, m: Message) {
        self.queue.borrow_mut().push_back(m);
    }

    /// The next message to handle.
    pub(crate) fn pop(&self) -> Option<Message> {
        self.queue.borrow_mut().pop_front()
    }

    /// Whether nothing is queued.
    pub(crate) fn is_empty(&self) -> bool {
        self.queue.borrow().is_empty()
    }

    /// Reads everything that has arrived into the queue.
    pub(crate) fn drain(&self) {
        while let Some(m) = (self.poll)() {
            self.push(m);
        }
    }

    /// Whether the queue (after [`Incoming::drain`]) holds a change or the closing of the
    /// document `uri`: its diagnostics computed now would be stale.
    pub(crate) fn modifies(&self, uri: &str) -> bool {
        self.drain();
        self.queue
            .borrow()
            .iter()
            .any(|m| stop_reason(m, None, Some(uri)).is_some())
    }

    /// How many messages are queued.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.queue.borrow().len()
    }
}

/// Why a request stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The client cancelled it.
    Cancelled,
    /// Its document changed or was closed.
    Modified,
}

impl Stop {
    /// The error code and message it is answered with.
    pub(crate) fn answer(self) -> (ErrorCode, String) {
        match self {
            Self::Cancelled => (ErrorCode::RequestCanceled, "cancelled".to_owned()),
            Self::Modified => (
                ErrorCode::ContentModified,
                "the document changed while the request ran".to_owned(),
            ),
        }
    }
}

/// One running request's watch over the incoming messages.
pub(crate) struct Watch<'a, 'b> {
    incoming: &'a Incoming<'b>,
    id: RequestId,
    /// The request's document.
    uri: Option<String>,
    /// How many queued messages were looked at.
    seen: Cell<usize>,
    stop: Cell<Option<Stop>>,
}

impl std::fmt::Debug for Watch<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("id", &self.id)
            .field("stop", &self.stop.get())
            .finish_non_exhaustive()
    }
}

impl<'a, 'b> Watch<'a, 'b> {
    /// A watch for the request `id` on the document of its parameters
    /// (`textDocument.uri`), over what is queued after it and what arrives.
    pub(crate) fn new(incoming: &'a Incoming<'b>, id: RequestId, params: &Value) -> Self {
        let uri = params
            .get("textDocument")
            .and_then(|t| t.get("uri"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        Self {
            incoming,
            id,
            uri,
            seen: Cell::new(0),
            stop: Cell::new(None),
        }
    }

    /// Reads what has arrived (without blocking) and tells whether the request must stop.
    pub(crate) fn poll(&self) -> Option<Stop> {
        if self.stop.get().is_some() {
            return self.stop.get();
        }
        self.incoming.drain();
        let queue = self.incoming.queue.borrow();
        let stop = queue
            .iter()
            .skip(self.seen.get())
            .find_map(|m| stop_reason(m, Some(&self.id), self.uri.as_deref()));
        self.seen.set(queue.len());
        self.stop.set(stop);
        stop
    }

    /// Whether a poll found the request must stop, and why.
    pub(crate) fn stopped(&self) -> Option<Stop> {
        self.stop.get()
    }
}

/// Whether `m` stops the request `id` on the document `uri`.
fn stop_reason(m: &Message, id: Option<&RequestId>, uri: Option<&str>) -> Option<Stop> {
    let Message::Notification(n) = m else {
        return None;
    };
    match n.method.as_str() {
        Cancel::METHOD => {
            let p: CancelParams = serde_json::from_value(n.params.clone()).ok()?;
            let named = match p.id {
                NumberOrString::Number(k) => RequestId::from(k),
                NumberOrString::String(s) => RequestId::from(s),
            };
            (Some(&named) == id).then_some(Stop::Cancelled)
        }
        DidChangeTextDocument::METHOD | DidCloseTextDocument::METHOD => {
            let changed = n.params.get("textDocument")?.get("uri")?.as_str()?;
            (Some(changed) == uri).then_some(Stop::Modified)
        }
        _ => None,
    }
}
