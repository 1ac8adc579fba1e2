// The Bao records extension: starts `bao lsp` for .bao files through vscode-languageclient.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

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
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
