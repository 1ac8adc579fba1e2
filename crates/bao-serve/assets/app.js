// bao serve: the pages' one script. Hand-written, no libraries, nothing loaded from
// elsewhere. Every text from the server goes into the page as text (never as HTML).
'use strict';

(function () {
  const body = document.body;
  const page = body.dataset.page;
  const gameId = body.dataset.id;
  const main = document.getElementById('main');

  // ---------- small helpers ----------
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k === 'text') e.textContent = v;
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return e;
  }
  // The texts of the scribe's look back at an earlier ply, the rounds and the standings
  // (kept together for the message catalogue).
  const TEXT = {
    lookingBack: (n, move) => 'Ply ' + n + (move ? ' (' + move + ')' : '') + ': the board after it. Read only.',
    liveNow: (n) => 'The game has ' + n + (n === 1 ? ' ply.' : ' plies.'),
    backToLive: 'Back to the live board',
    atStart: 'The start: the board before the first ply. Read only.',
    standings: 'Standings',
    standingsHead: ['#', 'Player', 'Match points', 'SB', 'Games', 'Played', 'Byes'],
    tiebreaks: (list) => 'Match points: a match won 2, drawn 1, lost 0, a bye 2. Ties: ' + list.join(', then ') + '.',
    roundsTitle: 'Rounds',
    roundTitle: (r) => 'Round ' + r.number + ' (' + ({ 'entered': 'pairings entered', 'round-robin': 'round-robin', 'swiss': 'Swiss' }[r.pairing] || r.pairing) + ')',
    bye: (name) => name + ': bye',
    going: 'going on',
    corrected: 'corrected',
    crossHead: (n) => ['#', 'Player'].concat(Array.from({ length: n }, (_, i) => 'R' + (i + 1))).concat(['MP']),
    organise: 'Organise the rounds',
    organiseLogin: 'The organiser enters the scribe PIN at /scribe to pair rounds and correct results here.',
    playersLabel: 'Players (one a line; a round-robin pairs them in this order)',
    savePlayers: 'Save the players',
    pairingLabel: 'Pairing of the next round',
    pairings: [['swiss', 'Swiss (score groups)'], ['round-robin', 'Round-robin (circle method)'], ['entered', 'Entered below']],
    enteredLabel: 'Boards, when entered (one a line: South - North)',
    bestOfThree: ' Each board a best-of-three match',
    pairRound: 'Pair the next round',
    correctTitle: 'Set or correct a board\'s result (it stands over what the games say)',
    roundLabel: 'Round', boardLabel: 'Board', resultLabel: 'Result',
    results: [['1-0', '1-0 (South wins the match)'], ['1/2-1/2', '½-½'], ['0-1', '0-1 (North wins the match)'], ['', 'as the games say']],
    setResult: 'Set the result',
    done: 'Saved.',
    noStandings: 'No round yet.',
    clockField: 'Clock (seconds + increment a ply, e.g. 600+5; empty: none)',
    clockOf: (name, side) => name + ' (' + side + ')',
  };
  // A time left as a clock shows it: h:mm:ss, m:ss, and tenths under 10 s.
  function clockText(ms) {
    const t = Math.max(0, ms);
    const s = Math.floor(t / 1000);
    const two = (n) => String(n).padStart(2, '0');
    if (s >= 3600) return Math.floor(s / 3600) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60);
    if (s >= 10) return Math.floor(s / 60) + ':' + two(s % 60);
    return '0:' + two(s) + '.' + Math.floor((t % 1000) / 100);
  }
  function clear(node) { while (node.firstChild) node.firstChild.remove(); return node; }
  function tag(g, name, dflt) { return (g.tags && g.tags[name]) || dflt || ''; }
  function players(g) { return tag(g, 'South', 'South') + ' – ' + tag(g, 'North', 'North'); }

  let csrf = sessionStorage.getItem('bao-csrf') || '';

  // A request to the API: {status, data} (data: the parsed JSON or the text);
  // throws only when the network fails.
  async function api(method, url, data) {
    const opts = { method, credentials: 'same-origin', headers: {} };
    if (data !== undefined) {
      opts.headers['Content-Type'] = 'application/json';
      opts.body = JSON.stringify(data);
    }
    if (method !== 'GET' && csrf) opts.headers['X-CSRF-Token'] = csrf;
    const r = await fetch(url, opts);
    const text = await r.text();
    let parsed = text;
    try { parsed = JSON.parse(text); } catch (_) { /* text */ }
    return { status: r.status, data: parsed };
  }

  async function haveCsrf() {
    if (csrf) return true;
    try {
      const r = await api('GET', '/api/login');
      if (r.status === 200 && r.data.csrf) { csrf = r.data.csrf; sessionStorage.setItem('bao-csrf', csrf); return true; }
    } catch (_) { /* offline */ }
    return false;
  }

  function live(url, onChange) {
    if (!window.EventSource) return;
    const source = new EventSource(url);
    // A page left closes its stream: a browser keeps few connections to one server, and a
    // page kept for "back" would hold one.
    window.addEventListener('pagehide', () => source.close());
    const handler = (ev) => { try { onChange(JSON.parse(ev.data)); } catch (_) { onChange(null); } };
    for (const kind of ['state', 'new', 'move', 'undo', 'comment', 'result', 'reload', 'rounds']) {
      source.addEventListener(kind, handler);
    }
    return source;
  }

  function debounce(f, ms) {
    let t = null;
    return function () { clearTimeout(t); t = setTimeout(f, ms); };
  }

  function statusText(g) {
    if (g.live) return 'live';
    return g.result && g.result !== '*' ? 'finished' : 'stopped';
  }

  // ---------- the evening ----------
  async function evening() {
    const render = async () => {
      const r = await api('GET', '/api/games');
      if (r.status === 401) { needPin(); return; }
      const games = Array.isArray(r.data) ? r.data : [];
      clear(main);
      main.append(el('h1', { text: body.dataset.event }),
        el('p', { class: 'links' },
          el('a', { class: 'button', id: 'evening-file', href: '/evening.bao', download: 'evening.bao', text: 'The evening\'s file (.bao)' }), ' ',
          el('a', { class: 'button', id: 'sheets', href: '/sheets', text: 'Score sheets' })));
      if (games.length === 0) {
        main.append(el('p', { class: 'note', text: 'No games yet. Scribes start them at /scribe.' }));
        if (organiser) {
          const ev = await api('GET', '/api/event');
          organiser.refill(ev.status === 200 && ev.data && Array.isArray(ev.data.rounds) ? ev.data : null);
          main.append(organiser.node);
        }
        return;
      }
      const row = (g, id, status) => el('tr', { class: g.live ? 'live' : '' },
        el('td', {}, el('a', { href: '/games/' + id, text: players(g) }),
          tag(g, 'Game', '') ? el('span', { class: 'sub', text: ' game ' + tag(g, 'Game', '') }) : null),
        el('td', { text: tag(g, 'Round', '') }),
        el('td', { class: 'num', text: g.plies }),
        el('td', {}, el('span', { class: 'badge ' + status, text: status })),
        el('td', { text: g.result }));
      // A best-of-three match's finished games first, then the game going on.
      const rows = games.flatMap((g) => (g.earlier || []).map((e) => row(e, g.id, 'finished'))
        .concat([row(g, g.id, statusText(g))]));
      main.append(el('div', { class: 'scroll' }, el('table', { class: 'games' },
        el('thead', {}, el('tr', {}, ['Game', 'Round', 'Plies', 'Status', 'Result'].map((h) => el('th', { text: h })))),
        el('tbody', {}, rows))));
      const ev = await api('GET', '/api/event');
      const rounds = ev.status === 200 && ev.data && Array.isArray(ev.data.rounds) ? ev.data : null;
      if (rounds && rounds.rounds.length) {
        main.append(...standingsView(rounds), ...roundsView(rounds));
      } else {
        const cross = crosstable(games.flatMap((g) => (g.earlier || []).concat([g])));
        if (cross) main.append(el('h2', { text: 'Crosstable' }), cross);
      }
      if (organiser) { organiser.refill(rounds); main.append(organiser.node); }
    };
    // The organiser's controls, once the PIN was given on this browser: made once, so
    // that what is being typed stays while the page follows the games.
    const organiser = (await haveCsrf()) ? organiseView(() => render()) : null;
    await render();
    live('/api/events', debounce(render, 200));
  }

  // The standings (match points, tie-breaks) and the crosstable of the rounds: each
  // round's cell the opponent's rank, the side and the match's score.
  function standingsView(ev) {
    const fmtScore = (x) => (x || '').replace(/1\/2/g, '½');
    const table = el('div', { class: 'scroll' }, el('table', { class: 'standings', id: 'standings' },
      el('thead', {}, el('tr', {}, TEXT.standingsHead.map((h) => el('th', { text: h })))),
      el('tbody', {}, ev.standings.map((s) => el('tr', {},
        el('td', { class: 'num', text: String(s.rank) }), el('td', { text: s.name }),
        el('td', { class: 'num strong', text: String(s.match_points) }), el('td', { class: 'num', text: s.sb }),
        el('td', { class: 'num', text: s.game_points }), el('td', { class: 'num', text: String(s.played) }),
        el('td', { class: 'num', text: String(s.byes) }))))));
    const cross = el('div', { class: 'scroll' }, el('table', { class: 'cross rounds', id: 'crosstable' },
      el('thead', {}, el('tr', {}, TEXT.crossHead(ev.rounds.length).map((h) => el('th', { text: h })))),
      el('tbody', {}, ev.crosstable.map((row) => el('tr', {},
        el('td', { class: 'num', text: String(row.rank) }), el('th', { text: row.name }),
        row.rounds.map((c) => el('td', { class: 'num' + (c && c.corrected ? ' corrected' : ''),
          title: c && c.corrected ? TEXT.corrected : null,
          text: !c ? '' : c.bye ? 'bye' : (c.opponent || '?') + c.side + ' ' + (c.score ? fmtScore(c.score) : '…') })),
        el('td', { class: 'num strong', text: String(row.match_points) }))))));
    return [el('h2', { text: TEXT.standings }), table, el('p', { class: 'note', text: TEXT.tiebreaks(ev.tiebreaks) }),
      el('h2', { text: 'Crosstable' }), cross];
  }

  function roundsView(ev) {
    const out = [el('h2', { text: TEXT.roundsTitle })];
    for (const r of ev.rounds.slice().reverse()) {
      out.push(el('h3', { text: TEXT.roundTitle(r) }), el('ol', { class: 'boards' },
        r.boards.map((b) => el('li', {},
          b.game ? el('a', { href: '/games/' + b.game, text: b.south + ' – ' + b.north }) : b.south + ' – ' + b.north, ' ',
          el('span', { class: 'badge' + (b.live ? ' live' : ''), text: b.outcome ? (b.score + (b.best_of_three ? ' (' + b.outcome.replace('1/2-1/2', '½-½') + ')' : '')) : TEXT.going }),
          b.corrected ? el('span', { class: 'sub', text: ' ' + TEXT.corrected }) : null)),
        r.bye ? el('li', { class: 'bye', text: TEXT.bye(r.bye) }) : null));
    }
    return out;
  }

  // Players, the next round's pairing, a result set or corrected: the organiser's.
  function organiseView(again) {
    const msg = el('p', { class: 'msg', role: 'status', id: 'organise-msg' });
    const said = async (r) => {
      if (r.status === 200 || r.status === 201) { msg.textContent = TEXT.done; delete players.dataset.typed; await again(); }
      else msg.textContent = (r.data && r.data.message) || ('refused (' + r.status + ')');
    };
    const players = el('textarea', { id: 'players', rows: '6', oninput: () => { players.dataset.typed = '1'; } });
    const pairing = el('select', { id: 'pairing' }, TEXT.pairings.map(([v, t]) => el('option', { value: v, text: t })));
    const entered = el('textarea', { id: 'entered', rows: '4', placeholder: 'Ali - Bakari' });
    const bo3 = el('input', { type: 'checkbox', id: 'best-of-three' });
    const roundNo = el('input', { id: 'fix-round', type: 'number', min: '1', value: '1', oninput: () => { roundNo.dataset.typed = '1'; } });
    const boardNo = el('input', { id: 'fix-board', type: 'number', min: '1', value: '1' });
    const result = el('select', { id: 'fix-result' }, TEXT.results.map(([v, t]) => el('option', { value: v, text: t })));
    const node = el('details', { class: 'organise', id: 'organise' },
      el('summary', { text: TEXT.organise }),
      el('form', { class: 'new', onsubmit: async (ev2) => {
        ev2.preventDefault();
        const names = players.value.split('\n').map((x) => x.trim()).filter((x) => x);
        said(await api('POST', '/api/event/players', { players: names }));
      } }, el('label', {}, TEXT.playersLabel, players), el('button', { type: 'submit', id: 'save-players', text: TEXT.savePlayers })),
      el('form', { class: 'new', onsubmit: async (ev2) => {
        ev2.preventDefault();
        const body = { pairing: pairing.value, best_of_three: bo3.checked };
        if (pairing.value === 'entered') {
          body.boards = entered.value.split('\n').map((x) => x.trim()).filter((x) => x).map((x) => {
            const [south, north] = x.split(/\s+-\s+|\s+v\s+/);
            return { south: south || '', north: north || '' };
          });
        }
        said(await api('POST', '/api/event/rounds', body));
      } }, el('label', {}, TEXT.pairingLabel, pairing), el('label', {}, TEXT.enteredLabel, entered),
      el('label', { class: 'check' }, bo3, TEXT.bestOfThree), el('button', { type: 'submit', id: 'pair-round', text: TEXT.pairRound })),
      el('form', { class: 'new', onsubmit: async (ev2) => {
        ev2.preventDefault();
        said(await api('POST', '/api/event/rounds/' + Number(roundNo.value) + '/result',
          { board: Number(boardNo.value), result: result.value || null }));
      } }, el('h3', { text: TEXT.correctTitle }),
      el('div', { class: 'row' }, el('label', {}, TEXT.roundLabel, roundNo), el('label', {}, TEXT.boardLabel, boardNo)),
      el('label', {}, TEXT.resultLabel, result), el('button', { type: 'submit', id: 'set-result', text: TEXT.setResult })),
      msg);
    let first = true;
    // The event as it stands now: what was not typed over is filled from it.
    function refill(ev) {
      if (first) node.open = !ev || ev.rounds.length === 0;
      first = false;
      if (!ev) return;
      if (!players.dataset.typed) players.value = ev.players.join('\n');
      if (!roundNo.dataset.typed && ev.rounds.length) roundNo.value = String(ev.rounds[ev.rounds.length - 1].number);
    }
    return { node, refill };
  }

  // Points of each player against each other, from the finished games that carry Round.
  function crosstable(games) {
    const rounds = games.filter((g) => g.tags && g.tags.Round);
    if (rounds.length === 0) return null;
    const names = [];
    const add = (n) => { if (!names.includes(n)) names.push(n); };
    rounds.forEach((g) => { add(tag(g, 'South', 'South')); add(tag(g, 'North', 'North')); });
    const pts = {};
    const total = {};
    names.forEach((n) => { total[n] = 0; });
    for (const g of rounds) {
      const s = tag(g, 'South', 'South'), n = tag(g, 'North', 'North');
      const score = { '1-0': [1, 0], '0-1': [0, 1], '1/2-1/2': [0.5, 0.5] }[g.result];
      if (!score) continue;
      pts[s + '\u0000' + n] = (pts[s + '\u0000' + n] || 0) + score[0];
      pts[n + '\u0000' + s] = (pts[n + '\u0000' + s] || 0) + score[1];
      total[s] += score[0]; total[n] += score[1];
    }
    const fmt = (x) => (x === undefined ? '' : String(x).replace('.5', '½').replace(/^0½$/, '½'));
    return el('div', { class: 'scroll' }, el('table', { class: 'cross' },
      el('thead', {}, el('tr', {}, el('th', { text: 'Player' }),
        names.map((_, i) => el('th', { text: String(i + 1) })), el('th', { text: 'Total' }))),
      el('tbody', {}, names.map((a, i) => el('tr', {},
        el('th', { text: (i + 1) + '. ' + a }),
        names.map((b) => el('td', { class: a === b ? 'self' : 'num', text: a === b ? '' : fmt(pts[a + '\u0000' + b]) })),
        el('td', { class: 'num', text: fmt(total[a]) }))))));
  }

  // ---------- the projector ----------
  // The boards of the current round fill the screen: live ones, and finished ones with
  // their result until a later round starts. `?board=ID`: that one board alone (a final).
  function roundOf(g) { return tag(g, 'Round', ''); }
  function laterRound(a, b) {
    const x = Number(a), y = Number(b);
    if (Number.isFinite(x) && Number.isFinite(y) && a !== '' && b !== '') return x > y;
    return a > b;
  }
  function projected(all, one) {
    if (one) return all.filter((g) => g.id === one);
    const live = all.filter((g) => g.live);
    let round = null;
    for (const g of live.length ? live : all) {
      if (round === null || laterRound(roundOf(g), round)) round = roundOf(g);
    }
    const shown = all.filter((g) => g.live || (g.result !== '*' && roundOf(g) === round));
    return shown.slice(-12);
  }
  // The grid for `n` boards on this screen: the columns that draw each board largest.
  function grid(n, w, h, aspect, caption) {
    let best = { cols: 1, rows: n, scale: 0 };
    for (let cols = 1; cols <= n; cols++) {
      const rows = Math.ceil(n / cols);
      const cw = w / cols - 12, ch = h / rows - caption - 12;
      const scale = Math.min(cw / aspect, ch);
      if (scale > best.scale) best = { cols, rows, scale };
    }
    return best;
  }
  async function projector() {
    const one = new URLSearchParams(location.search).get('board');
    const standingsOnly = new URLSearchParams(location.search).get('standings') === '1';
    body.classList.add('projecting');
    // The standings alone, in the projector's type (`?standings=1`, or no board to show).
    const standingsWall = async () => {
      const ev = await api('GET', '/api/event');
      if (ev.status !== 200 || !ev.data || !ev.data.rounds || !ev.data.rounds.length) return false;
      clear(main).append(el('div', { class: 'wallstand', id: 'wall-standings' },
        el('h1', { text: body.dataset.event + ' · ' + TEXT.standings + ' · ' + TEXT.roundTitle(ev.data.rounds[ev.data.rounds.length - 1]) }),
        ...standingsView(ev.data).slice(1, 2)));
      return true;
    };
    if (standingsOnly) {
      await standingsWall();
      live('/api/events', debounce(standingsWall, 300));
      return;
    }
    const cards = {};
    // The proportions of a projected picture (the board and hands, cut by the server),
    // learnt from the first one loaded.
    let aspect = 2;
    // A live timed board shows the running clock (its side, its time) where the others say
    // "live", ticking from the time the list gave.
    const ticking = [];
    const runningClock = (g) => {
      const c = g.clock;
      if (!c || !c.running || !c.since_ms) return null;
      const offset = c.now_ms - Date.now();
      const text = () => (c.running === 'south' ? 'S ' : 'N ') +
        clockText(c[c.running + '_ms'] - (Date.now() + offset - c.since_ms));
      const span = el('span', { class: 'res live clk', text: text() });
      ticking.push([span, text]);
      return span;
    };
    setInterval(() => { for (const [span, text] of ticking) if (span.isConnected) span.textContent = text(); }, 250);
    const caption = (g, plies, live, result) => [
      el('span', { class: 'names', text: players(g) }),
      el('span', { class: 'ply', text: (tag(g, 'Round', '') ? 'R' + tag(g, 'Round', '') + ' · ' : '') + plies + (g.clock && live ? '' : ' plies') }),
      (live && runningClock(g)) || el('span', { class: 'res' + (live ? ' live' : ''), text: live ? 'live' : result }),
    ];
    const render = async () => {
      const r = await api('GET', '/api/games');
      if (r.status === 401) { needPin(); return; }
      const games = projected(Array.isArray(r.data) ? r.data : [], one);
      clear(main);
      ticking.length = 0;
      for (const k of Object.keys(cards)) delete cards[k];
      if (games.length === 0) {
        if (!one && await standingsWall()) return;
        main.append(el('p', { class: 'note big', text: one ? 'No such board.' : 'No board is being played.' }));
        return;
      }
      const fit = grid(games.length, window.innerWidth - 16, window.innerHeight - 16, aspect, one ? 80 : 56);
      const wall = el('div', { class: 'wall' + (one ? ' one' : ''), id: 'wall', 'data-count': games.length, 'data-cols': fit.cols });
      wall.style.gridTemplateColumns = 'repeat(' + fit.cols + ', minmax(0, 1fr))';
      wall.style.gridTemplateRows = 'repeat(' + fit.rows + ', minmax(0, 1fr))';
      for (const g of games) {
        const img = el('img', { src: '/api/games/' + g.id + '/board.svg?compact=1&v=' + g.version, alt: 'board ' + players(g),
          onload: () => {
            const a = img.naturalWidth / img.naturalHeight;
            if (a > 0 && Math.abs(a - aspect) / aspect > 0.05) { aspect = a; again(); }
          } });
        const cap = el('p', { class: 'cap' }, caption(g, g.plies, g.live, g.result));
        cards[g.id] = { img, cap, g };
        wall.append(el('a', { class: 'card' + (g.live ? '' : ' done'), href: one ? '/projector' : '/projector?board=' + g.id, 'data-id': g.id },
          cap, el('div', { class: 'pic' }, img)));
      }
      main.append(wall);
    };
    const again = debounce(render, 300);
    await render();
    window.addEventListener('resize', again);
    live('/api/events', (c) => {
      const card = c && cards[c.id];
      // A new board, a game ended or read again: the wall is laid out anew.
      // A timed board's clocks are read again with the list.
      if (!card || card.g.clock || c.kind === 'new' || c.kind === 'result' || c.kind === 'reload' || !c.live) { again(); return; }
      card.img.src = '/api/games/' + c.id + '/board.svg?compact=1&v=' + c.version;
      clear(card.cap).append(...caption(card.g, c.plies, c.live, c.result));
    });
  }

  // ---------- one game ----------
  async function game() {
    const head = el('h1', { text: '' });
    const img = el('img', { class: 'board', alt: 'the board' });
    const info = el('p', { class: 'note' });
    const list = el('ol', { class: 'moves' });
    clear(main).append(head, img, info, el('h2', { text: 'Moves' }), list);
    const render = async () => {
      const [st, rec] = await Promise.all([
        api('GET', '/api/games/' + gameId + '/state'),
        api('GET', '/api/games/' + gameId),
      ]);
      if (st.status === 401) { needPin(); return; }
      const s = st.data;
      head.textContent = players(s);
      img.src = '/api/games/' + gameId + '/board.svg?v=' + s.version;
      info.textContent = s.plies + ' plies · ' + (s.live ? (s.position.to_move + ' to move') : 'result ' + s.result);
      clear(list);
      main.dataset.plies = String(s.plies);
      const games = (rec.data && rec.data.games) || [];
      const last = games[games.length - 1];
      const moves = (last && last.moves) || [];
      for (let i = 0; i < moves.length; i += 2) {
        const pair = moves.slice(i, i + 2).map((m) => m.move).join('  ');
        list.append(el('li', { text: pair }));
      }
    };
    await render();
    live('/api/games/' + gameId + '/events', debounce(render, 100));
  }

  // ---------- score sheets ----------
  // One sheet for every game of the evening (each game of a match its own), to print: one
  // page each (the print style sheet), the moves in numbered columns, the result and the
  // players' signatures.
  async function sheets() {
    const r = await api('GET', '/api/games');
    if (r.status === 401) { needPin(); return; }
    const games = Array.isArray(r.data) ? r.data : [];
    clear(main);
    main.append(el('p', { class: 'noprint' }, 'One page per game. ',
      el('button', { type: 'button', id: 'print', onclick: () => window.print(), text: 'Print the score sheets' })));
    const records = await Promise.all(games.filter((g) => !g.problem).map((g) => api('GET', '/api/games/' + g.id)));
    let count = 0;
    for (const rec of records) {
      for (const g of (rec.data && rec.data.games) || []) {
        const tags = {};
        for (const t of g.tags || []) tags[t.name] = t.value;
        const moves = (g.moves || []).map((m) => m.move);
        const first = g.start && g.start.to_move === 'north' ? 1 : 0;
        const rows = [];
        // Row n: move number n, South's ply then North's.
        for (let i = -first; i < moves.length; i += 2) {
          rows.push(el('tr', {}, el('td', { class: 'n', text: String(rows.length + 1) }),
            el('td', { text: i >= 0 ? moves[i] : '…' }), el('td', { text: moves[i + 1] || '' })));
        }
        while (rows.length < 75) rows.push(el('tr', {}, el('td', { class: 'n', text: String(rows.length + 1) }), el('td'), el('td')));
        const cols = [];
        const per = Math.ceil(rows.length / 3);
        for (let c = 0; c < rows.length; c += per) {
          cols.push(el('table', { class: 'sheetcol' },
            el('thead', {}, el('tr', {}, el('th', { text: '#' }), el('th', { text: 'South' }), el('th', { text: 'North' }))),
            el('tbody', {}, rows.slice(c, c + per))));
        }
        const field = (label, value) => el('div', { class: 'field' }, el('span', { class: 'label', text: label }), el('span', { class: 'value', text: value || '' }));
        count += 1;
        main.append(el('section', { class: 'sheet', 'data-game': tags.Game || '' },
          el('h1', { text: (tags.Event || body.dataset.event) + (tags.Round ? ' · Round ' + tags.Round : '') + (tags.Game ? ' · Game ' + tags.Game : '') }),
          el('div', { class: 'fields' },
            field('South', tags.South), field('North', tags.North), field('Date', tags.Date),
            field('Site', tags.Site), field('Rules', (g.rules && g.rules.key) || tags.RuleSet)),
          el('div', { class: 'cols' }, cols),
          el('div', { class: 'fields' }, field('Result', g.result && g.result !== '*' ? g.result : ''),
            field('Termination', tags.Termination)),
          el('div', { class: 'signs' },
            el('div', { class: 'sign', text: 'South' }), el('div', { class: 'sign', text: 'North' }), el('div', { class: 'sign', text: 'Arbiter' }))));
      }
    }
    main.dataset.sheets = String(count);
  }

  // ---------- the PIN ----------
  function needPin(then) {
    clear(main);
    const input = el('input', { id: 'pin', type: 'password', inputmode: 'numeric', autocomplete: 'off', maxlength: '12', placeholder: 'PIN' });
    const msg = el('p', { class: 'msg', role: 'status' });
    const form = el('form', { class: 'pin', onsubmit: async (ev) => {
      ev.preventDefault();
      msg.textContent = 'Checking…';
      try {
        const r = await api('POST', '/api/login', { pin: input.value });
        if (r.status === 200) {
          csrf = r.data.csrf; sessionStorage.setItem('bao-csrf', csrf);
          if (then) then(); else location.reload();
        } else if (r.status === 429) {
          msg.textContent = 'Too many wrong PINs: wait a little and try again.';
        } else {
          msg.textContent = 'That is not the PIN.';
        }
      } catch (_) { msg.textContent = 'No network: try again when it is back.'; }
    } }, el('label', { for: 'pin', text: 'Scribe PIN (shown where the server runs)' }), input,
    el('button', { type: 'submit', id: 'pin-go', text: 'Enter' }), msg);
    main.append(form);
    input.focus();
  }

  // ---------- the scribe: games and a new game ----------
  async function scribe() {
    if (!(await haveCsrf())) { needPin(scribe); return; }
    const r = await api('GET', '/api/games');
    const games = Array.isArray(r.data) ? r.data : [];
    clear(main);
    main.append(el('h1', { text: 'Record a board' }));
    const open = games.filter((g) => g.live);
    if (open.length) {
      main.append(el('ul', { class: 'pick' }, open.map((g) => el('li', {},
        el('a', { class: 'button', href: '/scribe/' + g.id, text: players(g) + ' (' + g.plies + ' plies)' })))));
    } else {
      main.append(el('p', { class: 'note', text: 'No game is being recorded.' }));
    }
    const field = (name, label, value, attrs) => el('label', {}, label,
      el('input', Object.assign({ name, value: value || '', autocomplete: 'off' }, attrs || {})));
    const matchBox = el('input', { type: 'checkbox', name: 'match' });
    const msg = el('p', { class: 'msg', role: 'status' });
    const form = el('form', { class: 'new', onsubmit: async (ev) => {
      ev.preventDefault();
      const f = new FormData(form);
      const tags = {};
      for (const n of ['Event', 'Round', 'South', 'North', 'TimeControl']) {
        const v = String(f.get(n) || '').trim();
        if (v) tags[n] = v;
      }
      if (matchBox.checked) tags.Match = (tags.South || 'South') + ' v ' + (tags.North || 'North');
      msg.textContent = 'Starting…';
      const res = await api('POST', '/api/games', { tags, rules: String(f.get('rules') || 'kiswahili'), position: null });
      if (res.status === 201) location.href = '/scribe/' + res.data.id;
      else if (res.status === 401) needPin(scribe);
      else msg.textContent = (res.data && res.data.message) || 'The game was not started.';
    } },
    el('h2', { text: 'New game' }),
    field('Event', 'Event', body.dataset.event),
    field('Round', 'Round', ''),
    field('South', 'South (moves first)', '', { required: true }),
    field('North', 'North', '', { required: true }),
    field('TimeControl', TEXT.clockField, '', { placeholder: '600+5', inputmode: 'numeric', pattern: '[0-9]+\\+[0-9]+' }),
    el('label', {}, 'Rules', el('select', { name: 'rules', id: 'rules' },
      (body.dataset.rules || 'kiswahili').split(' ').map((r) => el('option', { value: r, text: r }))),
    ),
    el('label', { class: 'check' }, matchBox, ' Best of three (the players change seats each game)'),
    el('button', { type: 'submit', id: 'new-go', text: 'Start the game' }), msg);
    main.append(form);
  }

  // ---------- the scribe: one board ----------
  // The pits as the board picture draws them: read from the served SVG itself (each pit
  // is a group `bao-A1` ... `bao-b8` with its circle), as boxes in percent of the picture.
  const PITS = ['A', 'B', 'a', 'b'].flatMap((r) => [1, 2, 3, 4, 5, 6, 7, 8].map((n) => r + n));
  function pitBoxes(svgText) {
    const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
    const svg = doc.documentElement;
    const vb = (svg.getAttribute('viewBox') || '').split(/[\s,]+/).map(Number);
    if (vb.length !== 4 || !(vb[2] > 0) || !(vb[3] > 0)) return null;
    const boxes = {};
    for (const pit of PITS) {
      // The pit's shape: a circle, or the square of a nyumba.
      const g = doc.getElementById('bao-' + pit);
      const shape = g && g.querySelector('circle, rect');
      if (!shape) return null;
      const num = (n) => Number(shape.getAttribute(n));
      const round = shape.tagName === 'circle';
      const cx = round ? num('cx') : num('x') + num('width') / 2;
      const cy = round ? num('cy') : num('y') + num('height') / 2;
      // The tap area: the pit and a little around it (the pits are 64 apart, 56 wide).
      const r = (round ? num('r') : num('width') / 2) * 1.12;
      if (![cx, cy, r].every(Number.isFinite)) return null;
      boxes[pit] = {
        left: (cx - r - vb[0]) / vb[2] * 100, top: (cy - r - vb[1]) / vb[3] * 100,
        width: 2 * r / vb[2] * 100, height: 2 * r / vb[3] * 100,
      };
    }
    return boxes;
  }

  async function record() {
    if (!(await haveCsrf())) { needPin(record); return; }
    const QKEY = 'bao-queue-' + gameId;
    let queue = JSON.parse(localStorage.getItem(QKEY) || '[]');
    let state = null;
    let chosenPit = null;

    const title = el('h1', {});
    const status = el('p', { class: 'status', role: 'status', id: 'status' });
    const img = el('img', { class: 'board', alt: 'the board' });
    const taps = el('div', { class: 'taps' });
    const boardBox = el('div', { class: 'boardbox' }, img, taps);
    const ask = el('div', { class: 'ask', id: 'ask' });
    // Both clocks, when the game has one: the server keeps the time, the page shows it
    // ticking and is the clock (the move's tap stops the mover's).
    const clockBox = (side) => el('div', { class: 'clock', id: 'clock-' + side },
      el('span', { class: 'who' }), el('span', { class: 'time' }));
    const clocks = el('div', { class: 'clocks', id: 'clocks', hidden: true }, clockBox('north'), clockBox('south'));
    let clockOffset = 0;
    let clockOf = null;
    let flagAsked = null;
    function tick() {
      const c = state && state.clock;
      clocks.hidden = !c;
      if (!c) return;
      if (clockOf !== state) { clockOf = state; clockOffset = c.now_ms - Date.now(); }
      const now = Date.now() + clockOffset;
      for (const side of ['south', 'north']) {
        const box = clocks.querySelector('#clock-' + side);
        const running = c.running === side && state.live && c.since_ms;
        const left = c[side + '_ms'] - (running ? now - c.since_ms : 0);
        box.querySelector('.who').textContent = TEXT.clockOf(tag(state, side === 'south' ? 'South' : 'North', side === 'south' ? 'South' : 'North'), side === 'south' ? 'South' : 'North');
        box.querySelector('.time').textContent = clockText(left);
        box.classList.toggle('running', !!running);
        box.classList.toggle('out', left <= 0);
        // Out of time by this page's clock: the server is asked (it judges by its own).
        if (running && left <= 0 && flagAsked !== state.version && !queue.length) {
          flagAsked = state.version;
          api('POST', '/api/games/' + gameId + '/flag', {}).then((r) => {
            if (r.status === 200) { state = r.data; show(); }
          }).catch(() => { flagAsked = null; });
        }
      }
      // North's clock above the board, South's below it (as the board is drawn).
      const bottom = clocks.querySelector(flipped ? '#clock-north' : '#clock-south');
      if (clocks.lastElementChild !== bottom) clocks.append(bottom);
    }
    setInterval(tick, 200);
    // The board as the scribe sits: flipped (North's rows at the bottom) when chosen.
    const FKEY = 'bao-flip-' + gameId;
    let flipped = localStorage.getItem(FKEY) === '1';
    const flip = el('button', { type: 'button', id: 'flip', class: 'small', onclick: () => {
      flipped = !flipped;
      localStorage.setItem(FKEY, flipped ? '1' : '0');
      boardVersion = null;
      show();
    }, text: 'Flip the board' });
    const moveList = el('ol', { class: 'moves', id: 'moves' });
    // The board after an earlier ply, tapped in the move list (read only), or null: the
    // live board.
    let viewing = null;
    const backNote = el('span', { class: 'what' });
    const backBar = el('div', { class: 'lookback', id: 'lookback', hidden: true }, backNote,
      el('button', { type: 'button', id: 'back-to-live', onclick: () => lookAt(null), text: TEXT.backToLive }));
    function lookAt(n) {
      viewing = n;
      chosenPit = null;
      askedAt = null;
      clear(ask);
      show();
      if (n !== null) boardBox.scrollIntoView({ block: 'nearest' });
    }
    // What became of each move sent from this page while it was waiting for the network:
    // waiting, recorded, refused, or not sent (a move before it was refused).
    const sentList = el('ol', { class: 'sent', id: 'sent' });
    const outcomes = [];
    function outcome(q, what, kind) {
      let o = outcomes.find((x) => x.ply === q.ply && x.move === q.move && x.kind === 'waiting');
      if (!o) { o = { ply: q.ply, move: q.move }; outcomes.push(o); }
      o.what = what;
      o.kind = kind;
      clear(sentList).append(...outcomes.slice(-12).map((x) =>
        el('li', { class: x.kind, text: 'Ply ' + (x.ply + 1) + ' ' + x.move + ': ' + x.what })));
    }
    const msg = el('p', { class: 'msg', role: 'alert', id: 'msg' });
    const typed = el('input', { id: 'typed', placeholder: 'or type a move: A6<*', autocomplete: 'off', autocapitalize: 'off' });
    const typeForm = el('form', { class: 'type', onsubmit: (ev) => { ev.preventDefault(); if (typed.value.trim()) { send(typed.value.trim()); typed.value = ''; } } },
      typed, el('button', { type: 'submit', text: 'Send' }));
    const tools = el('div', { class: 'tools' });
    clear(main).append(title, status, backBar, clocks, boardBox, el('div', { class: 'row' }, flip), ask, msg, sentList, typeForm, tools,
      el('h2', { text: 'Moves' }), moveList);

    for (const pit of PITS) {
      taps.append(el('button', { class: 'pit', type: 'button', 'data-pit': pit, 'aria-label': pit, hidden: true, onclick: () => tapPit(pit) }));
    }

    // The picture of `version`: loaded once, its pits read from it, the tap areas put on
    // them (the picture's size changes with the players' names and the captions).
    let boardVersion = null;
    async function loadBoard(version) {
      const key = version + ':' + viewing + ':' + flipped;
      if (boardVersion === key) return;
      boardVersion = key;
      const at = viewing;
      const url = '/api/games/' + gameId + '/board.svg?v=' + version + (flipped ? '&flip=1' : '') +
        (at === null ? '' : '&ply=' + at);
      let text;
      try {
        const r = await fetch(url, { credentials: 'same-origin' });
        text = await r.text();
      } catch (_) { boardVersion = null; return; }
      if (boardVersion !== key) return;
      const boxes = pitBoxes(text);
      img.src = url;
      if (!boxes) return;
      for (const b of taps.children) {
        const box = boxes[b.dataset.pit];
        b.style.left = box.left + '%';
        b.style.top = box.top + '%';
        b.style.width = box.width + '%';
        b.style.height = box.height + '%';
        b.hidden = false;
      }
      boardBox.dataset.version = String(version);
      boardBox.dataset.flipped = flipped ? '1' : '0';
      boardBox.dataset.ply = at === null ? 'live' : String(at);
    }

    function save() { localStorage.setItem(QKEY, JSON.stringify(queue)); }

    function show() {
      if (!state) return;
      title.textContent = players(state);
      main.dataset.plies = String(state.plies);
      main.dataset.queued = String(queue.length);
      loadBoard(state.version);
      const pending = queue.length > 0;
      const pos = state.position;
      if (pending) {
        status.textContent = 'Waiting for the network: ' + queue.map((q) => q.move).join(', ') + ' will be sent, in order. Ply ' +
          (state.plies + queue.length + 1) + ' may be tapped meanwhile.';
      } else if (state.live && pos) {
        const side = pos.to_move === 'south' ? tag(state, 'South', 'South') + ' (South)' : tag(state, 'North', 'North') + ' (North)';
        status.textContent = 'Ply ' + (state.plies + 1) + ': ' + side + ' to move · ' + pos.stage +
          (pos.hands ? ' · hands S ' + pos.hands.south + ', N ' + pos.hands.north : '');
      } else {
        status.textContent = 'Game over: ' + state.result + (state.outcome ? ' (' + state.outcome.reason.replace(/_/g, ' ') + ')' : '');
      }
      // While moves wait for the network the page cannot know the legal moves after them:
      // every pit of the side to move then is offered, and the server judges the move.
      const starts = new Set((state.moves || []).map((m) => m.pit));
      const moverRows = pending && pos ? ((pos.to_move === 'south') === (queue.length % 2 === 0) ? 'AB' : 'ab') : '';
      // Looking back at an earlier ply: nothing to tap on the board but the way back.
      const line = state.line || [];
      if (viewing !== null && viewing > line.length) viewing = null;
      backBar.hidden = viewing === null;
      boardBox.classList.toggle('past', viewing !== null);
      if (viewing !== null) {
        backNote.textContent = (viewing === 0 ? TEXT.atStart : TEXT.lookingBack(viewing, line[viewing - 1])) +
          ' ' + TEXT.liveNow(line.length);
      }
      for (const b of taps.children) {
        const on = viewing === null && state.live && (pending ? moverRows.includes(b.dataset.pit[0]) : starts.has(b.dataset.pit));
        b.disabled = !on;
        b.classList.toggle('can', on);
        b.classList.toggle('chosen', b.dataset.pit === chosenPit);
      }
      // The moves so far, numbered as the record numbers them (a pair a line), the last
      // one marked; tapping one shows the board after it.
      clear(moveList);
      for (let i = 0; i < line.length; i += 2) {
        moveList.append(el('li', {},
          line.slice(i, i + 2).map((m, k) => {
            const n = i + k + 1;
            return el('button', { type: 'button', class: 'mv' + (n === line.length ? ' last' : '') + (n === viewing ? ' seen' : ''),
              'data-ply': String(n), 'aria-pressed': n === viewing ? 'true' : 'false',
              onclick: () => lookAt(n === viewing ? null : n), text: m });
          })));
      }
      typed.disabled = !state.live;
      typeForm.hidden = !state.live;
      renderTools();
      tick();
      // Read only while looking back: no Send box, no tools.
      tools.hidden = viewing !== null;
      if (viewing !== null) typeForm.hidden = true;
    }

    // A question is about the board of one version: a choice made after another phone
    // recorded the ply sends nothing (the question is closed when the news arrives).
    let askedAt = null;
    function stillLegal(move) {
      return !!state && askedAt === state.version && (state.moves || []).some((m) => m.move === move);
    }
    function option(label, m, onpick, id) {
      return el('button', { type: 'button', class: 'option', id, disabled: !m,
        onclick: () => { if (m && stillLegal(m.move)) onpick(); else staleQuestion(); } },
      el('strong', { text: label }), el('span', { class: 'does', text: m ? m.move + ': ' + m.does : '' }));
    }

    function clearAsk() { chosenPit = null; askedAt = null; clear(ask); show(); }

    function staleQuestion() {
      const n = state ? state.plies : 0;
      const last = state && state.line && state.line[n - 1];
      clear(ask);
      chosenPit = null;
      askedAt = null;
      msg.textContent = 'The board changed: ply ' + n + (last ? ' (' + last + ')' : '') +
        ' was recorded from another phone. Nothing was sent; tap again.';
      show();
    }

    // The question a 422 `serve::undecided_move` asks (a typed `A6`): the same as a tap's.
    function askAbout(options) {
      const pits = [...new Set(options.map((m) => m.pit))];
      const signs = [...new Set(options.map((m) => m.sign))];
      if (pits.length === 1 && signs.length === 1) { chosenPit = pits[0]; askedAt = state.version; show(); afterSign(pits[0], signs[0]); return; }
      if (pits.length === 1) { tapPit(pits[0]); return; }
      clear(ask);
      askedAt = state.version;
      ask.append(el('p', { class: 'q', text: 'Which move?' }),
        options.map((m, i) => option(m.move, m, () => { clear(ask); send(m.move); }, 'opt-' + i)),
        el('button', { type: 'button', class: 'cancel', onclick: clearAsk, text: 'Cancel' }));
    }

    function tapPit(pit) {
      msg.textContent = '';
      chosenPit = pit;
      askedAt = state.version;
      show();
      if (queue.length) {
        // After moves still waiting: the direction only; the server reads the move and
        // says what it makes of it when the network is back.
        clear(ask);
        ask.append(el('p', { class: 'q', text: pit + ': which direction? (ply ' + (state.plies + queue.length + 1) + ', sent when the network is back)' }),
          el('div', { class: 'arrows' },
            el('button', { type: 'button', class: 'arrow', id: 'arrow-left', onclick: () => { clear(ask); send(pit + '<'); }, 'aria-label': 'to the left', text: '◀' }),
            el('button', { type: 'button', class: 'arrow', id: 'arrow-right', onclick: () => { clear(ask); send(pit + '>'); }, 'aria-label': 'to the right', text: '▶' })),
          el('button', { type: 'button', class: 'cancel', onclick: clearAsk, text: 'Cancel' }));
        return;
      }
      const cands = (state.moves || []).filter((m) => m.pit === pit);
      const signs = [...new Set(cands.map((m) => m.sign))];
      clear(ask);
      const kichwa = state.position.stage === 'namua' && signs.length === 2 && cands.every((m) => m.capture);
      if (kichwa) {
        ask.append(el('p', { class: 'q', text: pit + ' captures from either kichwa. Which one? (' + cands.map((m) => m.move + ': ' + m.does).join(' · ') + ')' }),
          option('The left kichwa', cands.find((m) => m.sign === '<'), () => afterSign(pit, '<'), 'opt-left-kichwa'),
          option('The right kichwa', cands.find((m) => m.sign === '>'), () => afterSign(pit, '>'), 'opt-right-kichwa'));
      } else {
        ask.append(el('p', { class: 'q', text: pit + ': which direction?' }),
          el('div', { class: 'arrows' },
            el('button', { type: 'button', class: 'arrow', id: 'arrow-left', disabled: !signs.includes('<'), onclick: () => afterSign(pit, '<'), 'aria-label': 'to the left', text: '◀' }),
            el('button', { type: 'button', class: 'arrow', id: 'arrow-right', disabled: !signs.includes('>'), onclick: () => afterSign(pit, '>'), 'aria-label': 'to the right', text: '▶' })),
          el('p', { class: 'does', text: cands.map((m) => m.move + ': ' + m.does).join(' · ') }));
      }
      ask.append(el('button', { type: 'button', class: 'cancel', onclick: clearAsk, text: 'Cancel' }));
    }

    function afterSign(pit, sign) {
      if (askedAt !== state.version) { staleQuestion(); return; }
      const cands = (state.moves || []).filter((m) => m.pit === pit && m.sign === sign);
      if (cands.length === 0) { staleQuestion(); return; }
      if (cands.length === 1) { clear(ask); send(cands[0].move); return; }
      const stop = cands.find((m) => !m.safari), safari = cands.find((m) => m.safari);
      clear(ask);
      ask.append(el('p', { class: 'q', text: pit + ' reaches the ' + state.house + '. Stop there, or safari?' }),
        option('Stop at the ' + state.house, stop, () => { clear(ask); send(stop.move); }, 'opt-stop'),
        option('Safari: sow the ' + state.house + ' on', safari, () => { clear(ask); send(safari.move); }, 'opt-safari'),
        el('button', { type: 'button', class: 'cancel', onclick: clearAsk, text: 'Cancel' }));
    }

    function send(move) {
      if (!state) return;
      const ply = state.plies + queue.length;
      // The moment of the tap: the mover's clock stops here (the server checks it).
      queue.push({ ply, move, at: Date.now() + clockOffset });
      save();
      outcome({ ply, move }, 'waiting…', 'waiting');
      chosenPit = null;
      show();
      flush();
    }

    let flushing = false;
    async function flush() {
      if (flushing) return;
      flushing = true;
      try {
        while (queue.length) {
          const q = queue[0];
          let r;
          try {
            r = await api('POST', '/api/games/' + gameId + '/moves', q.at ? { ply: q.ply, move: q.move, at: Math.round(q.at) } : { ply: q.ply, move: q.move });
          } catch (_) {
            show();
            return; // offline: tried again when the network returns
          }
          if (r.status === 401) { needPin(record); return; }
          if (r.status === 429 || r.status >= 500) { setTimeout(flush, 2000); return; }
          queue.shift();
          save();
          const dropped = () => {
            for (const later of queue) outcome(later, 'not sent: ply ' + (q.ply + 1) + ' before it was not recorded', 'refused');
          };
          if (r.status === 200) {
            state = r.data;
            msg.textContent = '';
            outcome(q, 'recorded', 'recorded');
          } else if (r.status === 422 && r.data && r.data.code === 'serve::undecided_move' && Array.isArray(r.data.options) && r.data.options.length) {
            // A typed move that leaves a decision open: asked as a tap is.
            outcome(q, 'a decision is open: asked above', 'asked');
            dropped();
            queue = []; save();
            msg.textContent = '';
            await reload();
            askAbout(r.data.options);
          } else {
            const d = r.data || {};
            outcome(q, 'not recorded: ' + (d.message || ('refused (' + r.status + ')')), 'refused');
            dropped();
            queue = []; save();
            msg.textContent = r.status === 409
              ? 'Not recorded: ' + (d.message || 'the game moved on') + '. The board is reloaded.'
              : (q.move + ' was refused: ' + (d.message || '') + (d.help ? ' ' + d.help : ''));
            await reload();
          }
        }
      } finally {
        flushing = false;
        show();
      }
    }

    async function reload() {
      const before = state;
      try {
        const r = await api('GET', '/api/games/' + gameId + '/state');
        if (r.status === 200) state = r.data;
      } catch (_) { /* offline */ }
      if (before && state && before.version !== state.version) {
        if (askedAt !== null) staleQuestion();
        else if (state.plies > before.plies) msg.textContent = '';
      }
      show();
    }

    // A confirmation is about the board as it is asked: if another phone changes the game
    // meanwhile, "Yes" does nothing but say so.
    function confirmThen(text, action, id) {
      clear(ask);
      const asked = state.version;
      ask.append(el('p', { class: 'q', text }),
        el('div', { class: 'row' },
          el('button', { type: 'button', class: 'danger', id: id || 'confirm', onclick: async () => {
            clear(ask);
            if (state.version !== asked) { msg.textContent = 'The game changed meanwhile: nothing was done. Look at the board and try again.'; show(); return; }
            await action();
          }, text: 'Yes' }),
          el('button', { type: 'button', class: 'cancel', onclick: clearAsk, text: 'No' })));
      ask.scrollIntoView({ block: 'nearest' });
    }

    async function post(path, data) {
      try {
        const r = await api('POST', '/api/games/' + gameId + path, data);
        if (r.status === 200) { state = r.data; msg.textContent = ''; askedAt = null; }
        else if (r.status === 401) { needPin(record); return; }
        else { msg.textContent = (r.data && r.data.message) || ('refused (' + r.status + ')'); await reload(); }
      } catch (_) { msg.textContent = 'No network: try again when it is back.'; }
      show();
    }

    function renderTools() {
      clear(tools);
      if (state && !state.live) {
        const why = state.tags && state.tags.Termination ? ' (' + state.tags.Termination.replace(/_/g, ' ') + ')' : '';
        tools.append(
          el('button', { type: 'button', id: 'undo-result', disabled: state.result === '*',
            onclick: () => confirmThen('Take back the result ' + state.result + why + '? The game goes on' +
              (state.outcome ? ' from before its last ply' : '') + '.', () => post('/undo', { plies: state.plies }), 'confirm-undo-result'),
            text: 'Undo the result' }),
          el('a', { class: 'button', id: 'to-games', href: '/scribe', text: 'Other boards · new game' }),
          el('a', { class: 'button', href: '/games/' + gameId, text: 'This game\'s page' }));
        typeForm.hidden = true;
        return;
      }
      typeForm.hidden = false;
      if (!state || queue.length) return;
      const s = tag(state, 'South', 'South'), n = tag(state, 'North', 'North');
      const comment = el('input', { id: 'comment', placeholder: 'comment after the last ply', autocomplete: 'off' });
      tools.append(
        el('button', { type: 'button', id: 'undo', disabled: state.plies === 0, onclick: () => confirmThen('Take back ply ' + state.plies +
          (state.line && state.line[state.plies - 1] ? ', ' + state.line[state.plies - 1] : '') + '?', () => post('/undo', { plies: state.plies }), 'confirm-undo'), text: 'Undo' }),
        el('form', { class: 'type', onsubmit: (ev) => { ev.preventDefault(); if (comment.value.trim()) { post('/comment', { text: comment.value.trim() }); } } },
          comment, el('button', { type: 'submit', text: 'Comment' })),
        el('div', { class: 'ends' },
          el('button', { type: 'button', id: 'resign-south', onclick: () => confirmThen(s + ' (South) resigns: ' + n + ' wins, 0-1?', () => post('/result', { result: '0-1', termination: 'resignation', plies: state.plies }), 'confirm-result'), text: 'South resigns' }),
          el('button', { type: 'button', id: 'resign-north', onclick: () => confirmThen(n + ' (North) resigns: ' + s + ' wins, 1-0?', () => post('/result', { result: '1-0', termination: 'resignation', plies: state.plies }), 'confirm-result'), text: 'North resigns' }),
          el('button', { type: 'button', id: 'time-south', onclick: () => confirmThen(s + ' (South) loses on time: 0-1?', () => post('/result', { result: '0-1', termination: 'time_forfeit', plies: state.plies }), 'confirm-result'), text: 'South: time' }),
          el('button', { type: 'button', id: 'time-north', onclick: () => confirmThen(n + ' (North) loses on time: 1-0?', () => post('/result', { result: '1-0', termination: 'time_forfeit', plies: state.plies }), 'confirm-result'), text: 'North: time' }),
          state.draws ? el('button', { type: 'button', id: 'draw', onclick: () => confirmThen('A draw by agreement, ½-½?', () => post('/result', { result: '1/2-1/2', termination: 'agreement', plies: state.plies }), 'confirm-result'), text: 'Draw' }) : null));
    }

    await reload();
    flush();
    window.addEventListener('online', flush);
    setInterval(() => { if (queue.length) flush(); }, 3000);
    live('/api/games/' + gameId + '/events', (c) => {
      if (!c || queue.length || flushing) return;
      if (!state || c.version !== state.version) reload();
    });
  }

  const pages = { evening, projector, game, scribe, record, sheets };
  if (pages[page]) pages[page]();
})();
