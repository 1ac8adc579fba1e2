// The board beside the cursor: the HTML of the webview panel that shows the server's
// `bao/boardAt` answer (spec/lsp.md) for the move under the cursor. No VS Code API here, so
// that a browser test can render it.
'use strict';

function escapeHtml(s) {
  return String(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

// The page for one answer (`null`: no move under the cursor). The SVG boards come from the
// server (bao-export's drawing); everything else is escaped text.
function boardHtml(r) {
  const head = '<!DOCTYPE html><html><head><meta charset="utf-8">' +
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<style>body{font-family:sans-serif;margin:8px;color:var(--vscode-foreground,#222)}' +
    'h1{font-size:1.1em;margin:0 0 4px}p{margin:2px 0}.note{opacity:.8}' +
    '.board svg{width:100%;height:auto;max-width:520px}h2{font-size:1em;margin:10px 0 2px}</style>' +
    '</head><body>';
  if (r === null || r === undefined) {
    return head + '<p id="empty">No move under the cursor.</p></body></html>';
  }
  const lines = [];
  lines.push(`<h1 id="ply">Ply ${r.ply}, ${escapeHtml(r.mover)}: ${escapeHtml(r.written)}</h1>`);
  if (!r.legal) {
    if (r.repaired) {
      lines.push(`<p class="note" id="state">Not legal here; played: ${escapeHtml(r.played)} (the repair)</p>`);
    } else if (r.played) {
      lines.push('<p class="note" id="state">After an illegal move</p>');
    } else {
      lines.push('<p class="note" id="state">Not legal here; no clear repair</p>');
    }
  }
  if (r.assumes) {
    lines.push(`<p class="note" id="assumes">Assuming ${escapeHtml(r.assumes.move)} at ply ${r.assumes.ply} (--assume-fixes)</p>`);
  }
  if (r.summary) {
    lines.push(`<p id="summary">${escapeHtml(r.summary)}</p>`);
  }
  lines.push(`<h2>Before</h2><div class="board" id="before">${r.before.svg}</div>`);
  if (r.after) {
    lines.push(`<h2>After</h2><div class="board" id="after">${r.after.svg}</div>`);
  }
  return head + lines.join('') + '</body></html>';
}

module.exports = { boardHtml, escapeHtml };

// `node board.js ANSWER.json` writes the page of a saved answer to stdout (the tests use it).
if (require.main === module) {
  const fs = require('fs');
  const answer = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  process.stdout.write(boardHtml(answer));
}
