// The Bao records extension: starts `bao lsp` for .bao files through vscode-languageclient.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');
const { boardHtml } = require('./board');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('bao');
  const command = config.get('path', 'bao');
  const serverOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: [{ language: 'bao' }],
    initializationOptions: {
      lapBudget: config.get('lapBudget', 100000),
      inlayHints: config.get('inlayHints', false),
      semanticTokensFullLimit: config.get('semanticTokensFullLimit', 2097152),
    },
  };
  client = new LanguageClient('bao', 'Bao language server', serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  context.subscriptions.push(
    vscode.commands.registerCommand('bao.showBoard', () => showBoard(context)));
  return client.start();
}

// The board beside the cursor: a webview panel that follows the cursor in .bao editors and
// shows the server's `bao/boardAt` answer (board.js draws it).
let panel;

function showBoard(context) {
  if (panel) {
    panel.reveal(vscode.ViewColumn.Beside, true);
    return;
  }
  panel = vscode.window.createWebviewPanel('baoBoard', 'Bao board', {
    viewColumn: vscode.ViewColumn.Beside,
    preserveFocus: true,
  }, { enableScripts: false });
  const subscription = vscode.window.onDidChangeTextEditorSelection((e) => update(e.textEditor));
  panel.onDidDispose(() => {
    subscription.dispose();
    panel = undefined;
  }, null, context.subscriptions);
  update(vscode.window.activeTextEditor);
}

async function update(editor) {
  if (!panel || !client || !editor || editor.document.languageId !== 'bao') {
    return;
  }
  const position = editor.selection.active;
  try {
    const answer = await client.sendRequest('bao/boardAt', {
      textDocument: { uri: editor.document.uri.toString() },
      position: { line: position.line, character: position.character },
    });
    if (panel) {
      panel.webview.html = boardHtml(answer);
    }
  } catch (err) {
    // A request cancelled or outdated by the next move of the cursor: the next answer comes.
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
