// Analyse: edit a board (paint with mouse, finger or keyboard, or paste text), pick the pieces,
// level, input model and player, and get the player's placements ranked with each term of their
// value; animate any of them. The whole view lives in the URL, so a link reproduces it.
import { drawTile, html, FIELD_X, FIELD_Y, WIDTH, HEIGHT } from '/assets/nes.js';
import { postJson, field, clearErrors, showApiError, showError, checkInteger, tapOptions, playerSelect } from '/assets/ui.js';

const CELL = 24;
const COLORS = ['#000', '#fcfcfc', '#0058f8', '#3cbcfc'];

// The board in a link: 20 rows, each 3 hex digits of its 10 cells (leftmost = highest bit).
export function encodeBoard(cells) {
  let s = '';
  for (let y = 0; y < 20; y++) {
    let row = 0;
    for (let x = 0; x < 10; x++) row = (row << 1) | (cells[y * 10 + x] ? 1 : 0);
    s += row.toString(16).padStart(3, '0');
  }
  return s;
}
export function decodeBoard(s, cells) {
  if (!/^[0-9a-f]{60}$/i.test(s)) return false;
  for (let y = 0; y < 20; y++) {
    const row = parseInt(s.slice(y * 3, y * 3 + 3), 16);
    for (let x = 0; x < 10; x++) cells[y * 10 + x] = (row >> (9 - x)) & 1;
  }
  return true;
}

// Reads the board from a screenshot of the NES playfield in the standard capture layout: the
// 256-pixel-wide picture (any integer or fractional scale), 224 lines (the visible picture, as
// this page draws it) or 240 (the full frame, 8 more lines on top). Each cell is read at its
// centre: a block when it is not black. Returns 200 0/1 values, top row first, or a message.
export async function readScreenshot(source) {
  const image = new Image();
  image.src = source;
  await image.decode();
  const ratio = image.naturalHeight / image.naturalWidth;
  const lines = Math.abs(ratio - HEIGHT / WIDTH) < 0.02 ? HEIGHT : Math.abs(ratio - 240 / WIDTH) < 0.02 ? 240 : null;
  if (!lines) {
    return { error: `a ${image.naturalWidth}×${image.naturalHeight} picture is not an NES screenshot: it needs the NES's 256×224 or 256×240 shape (any scale)` };
  }
  const c = document.createElement('canvas');
  c.width = WIDTH; c.height = lines;
  const g = c.getContext('2d');
  g.imageSmoothingEnabled = false;
  g.drawImage(image, 0, 0, WIDTH, lines);
  const top = FIELD_Y + (lines - HEIGHT);
  const pixels = g.getImageData(FIELD_X, top, 80, 160).data;
  const cells = [];
  for (let y = 0; y < 20; y++) {
    for (let x = 0; x < 10; x++) {
      // The centre of the cell's 7×7 block (a tile's eighth row and column are its gap).
      const i = ((y * 8 + 4) * 80 + (x * 8 + 4)) * 4;
      const light = Math.max(pixels[i], pixels[i + 1], pixels[i + 2]);
      cells.push(light > 48 ? 1 : 0);
    }
  }
  return { cells };
}

export function mount(root) {
  root.append(html(`
  <div class="layout">
    <div class="board-column">
      <canvas id="analyse-board" class="board" width="${10 * CELL}" height="${20 * CELL}" tabindex="0"
        role="img" aria-label="the board: click, drag or touch to fill or empty cells; arrow keys move the cursor, Space toggles a cell"></canvas>
      <div class="controls" style="margin-top:.4em">
        <button id="analyse-clear">Clear</button>
        <button id="analyse-to-text">Board → text</button>
        <button id="analyse-from-text">Text → board</button>
        <label class="field">Board from a screenshot <input id="analyse-screenshot" type="file" accept="image/*"></label>
      </div>
      <textarea id="analyse-text" rows="6" cols="12" spellcheck="false" aria-label="the board as text: 20 rows of 10 cells, . empty, # block"></textarea>
      <span class="field-error" id="analyse-board-error" aria-live="polite"></span>
    </div>
    <div class="panel">
      <div class="controls">
        ${field('analyse', 'player', 'Player', '<select id="analyse-player"></select>')}
        ${field('analyse', 'piece', 'Piece', '<select id="analyse-piece"></select>')}
        ${field('analyse', 'next', 'Next', '<select id="analyse-next"><option value="">unknown</option></select>')}
        ${field('analyse', 'level', 'Level', '<input id="analyse-level" type="number" min="0" max="255" value="18" inputmode="numeric">', '0-255')}
        ${field('analyse', 'input', 'Tap speed', `<select id="analyse-input">${tapOptions('X.')}</select>`)}
        ${field('analyse', 'das', 'DAS', '<input id="analyse-das" type="checkbox" checked>')}
        <button id="analyse-run">Analyse</button>
        <button id="analyse-link" title="copies a link to this board and these settings">Copy link</button>
      </div>
      <div class="muted" id="analyse-player-about"></div>
      <div class="error" id="analyse-error" role="alert"></div>
      <div class="status" id="analyse-status" aria-live="polite"></div>
      <div class="scroll" style="max-height:calc(100vh - 260px)">
      <table><thead><tr><th>#</th><th>piece</th><th>columns</th><th>value</th><th>terms</th><th>clears</th><th>frames</th><th>buttons</th><th></th></tr></thead>
      <tbody id="analyse-results"></tbody></table>
      </div>
      <div class="status" id="analyse-follow-up"></div>
    </div>
  </div>`));
  const $ = (id) => root.querySelector('#' + id);
  for (const p of 'TJZOSLI') {
    $('analyse-piece').append(new Option(p, p));
    $('analyse-next').append(new Option(p, p));
  }
  const cells = new Uint8Array(200);
  let shown = null, animation = null, timer = null, cursor = null, followUp = null;
  const canvas = $('analyse-board');
  const g = canvas.getContext('2d');

  function draw() {
    g.fillStyle = '#000'; g.fillRect(0, 0, canvas.width, canvas.height);
    g.strokeStyle = '#1c1c24'; g.lineWidth = 1;
    for (let x = 0; x <= 10; x++) { g.beginPath(); g.moveTo(x * CELL, 0); g.lineTo(x * CELL, 20 * CELL); g.stroke(); }
    for (let y = 0; y <= 20; y++) { g.beginPath(); g.moveTo(0, y * CELL); g.lineTo(10 * CELL, y * CELL); g.stroke(); }
    for (let i = 0; i < 200; i++) if (cells[i]) drawTile(g, 1, (i % 10) * CELL, Math.floor(i / 10) * CELL, COLORS, CELL);
    if (animation) {
      for (const [x, y] of animation) if (y >= 0) drawTile(g, 2, x * CELL, y * CELL, COLORS, CELL);
    } else if (shown) {
      g.strokeStyle = '#ffec40'; g.lineWidth = 3;
      for (const [x, y] of shown.cells) g.strokeRect(x * CELL + 2, y * CELL + 2, CELL - 4, CELL - 4);
      if (followUp && shown === followUp.after) {
        g.strokeStyle = '#5cf'; g.setLineDash([4, 3]); g.lineWidth = 2;
        for (const [x, y] of followUp.cells) g.strokeRect(x * CELL + 4, y * CELL + 4, CELL - 8, CELL - 8);
        g.setLineDash([]);
      }
      g.lineWidth = 1;
    }
    if (cursor !== null) {
      g.strokeStyle = '#f0f'; g.lineWidth = 2;
      g.strokeRect((cursor % 10) * CELL + 1, Math.floor(cursor / 10) * CELL + 1, CELL - 2, CELL - 2);
      g.lineWidth = 1;
    }
  }

  // Painting with mouse, pen or finger: the first cell touched decides whether the stroke fills
  // or empties. The canvas may be scaled by CSS, so positions are mapped back to cells.
  let paint = null;
  const cellAt = (e) => {
    const r = canvas.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) * 10 / r.width), y = Math.floor((e.clientY - r.top) * 20 / r.height);
    return x >= 0 && x < 10 && y >= 0 && y < 20 ? y * 10 + x : null;
  };
  const edited = () => { shown = null; followUp = null; draw(); };
  canvas.onpointerdown = (e) => {
    const i = cellAt(e); if (i === null) return;
    e.preventDefault(); canvas.setPointerCapture(e.pointerId);
    paint = cells[i] ? 0 : 1; cells[i] = paint; edited();
  };
  canvas.onpointermove = (e) => {
    if (paint === null) return;
    const i = cellAt(e); if (i !== null && cells[i] !== paint) { cells[i] = paint; edited(); }
  };
  canvas.onpointerup = canvas.onpointercancel = () => { paint = null; };
  canvas.onfocus = () => { if (cursor === null) cursor = 190; draw(); };
  canvas.onblur = () => { cursor = null; draw(); };
  canvas.onkeydown = (e) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -10, ArrowDown: 10 };
    if (moves[e.key] !== undefined) {
      e.preventDefault();
      const c = cursor + moves[e.key];
      if (c >= 0 && c < 200 && !(Math.abs(moves[e.key]) === 1 && Math.floor(c / 10) !== Math.floor(cursor / 10))) cursor = c;
      draw();
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault(); cells[cursor] ^= 1; edited();
    }
  };

  const toText = () => {
    let t = '';
    for (let y = 0; y < 20; y++) {
      for (let x = 0; x < 10; x++) t += cells[y * 10 + x] ? '#' : '.';
      t += '\n';
    }
    return t;
  };
  $('analyse-to-text').onclick = () => { $('analyse-text').value = toText(); };
  $('analyse-from-text').onclick = () => {
    clearErrors(root);
    const rows = $('analyse-text').value.split('\n').map((l) => l.trimEnd()).filter((l) => l.length);
    const bad = rows.findIndex((r) => r.length !== 10);
    if (rows.length !== 20 || bad >= 0) {
      showError(root, 'analyse', 'board', rows.length !== 20
        ? `the board has ${rows.length} rows; it needs 20 rows of 10 cells (. empty, # block)`
        : `board row ${bad + 1} has ${rows[bad].length} cells; it needs 10 (. empty, # block)`);
      return;
    }
    rows.forEach((r, y) => [...r].forEach((c, x) => { cells[y * 10 + x] = c === '.' || c === ' ' ? 0 : 1; }));
    edited();
  };
  $('analyse-clear').onclick = () => { cells.fill(0); edited(); };
  async function fromScreenshot(source) {
    clearErrors(root);
    let read;
    try { read = await readScreenshot(source); } catch { read = { error: 'the file is not a picture this browser can read' }; }
    if (read.error) { showError(root, 'analyse', 'board', read.error); return false; }
    read.cells.forEach((v, i) => { cells[i] = v; });
    edited();
    return true;
  }
  $('analyse-screenshot').onchange = (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const url = URL.createObjectURL(file);
    fromScreenshot(url).finally(() => URL.revokeObjectURL(url));
  };

  function animate(p) {
    clearInterval(timer);
    let i = 0;
    timer = setInterval(() => {
      if (i >= p.path.length) { clearInterval(timer); animation = null; shown = p; draw(); return; }
      animation = p.path[i++]; draw();
    }, 1000 / 60);
  }

  const settings = () => ({
    board: encodeBoard(cells), piece: $('analyse-piece').value, next: $('analyse-next').value,
    level: $('analyse-level').value.trim(), input: $('analyse-input').value, das: $('analyse-das').checked ? '1' : '0',
    player: $('analyse-player').value,
  });
  const link = () => `${location.origin}${location.pathname}#analyse?${new URLSearchParams(settings())}`;

  async function run() {
    clearErrors(root);
    const level = checkInteger(root, 'analyse', 'level', 'Level', 0, 255);
    if (level === null) return;
    history.replaceState(null, '', '#analyse?' + new URLSearchParams(settings()));
    $('analyse-status').textContent = 'searching…';
    const request = {
      board: toText(), piece: $('analyse-piece').value, next: $('analyse-next').value || null,
      level, input: $('analyse-input').value, das: $('analyse-das').checked, player: $('analyse-player').value,
    };
    const { ok, body } = await postJson('/api/analyse', request);
    if (!ok) { $('analyse-status').textContent = ''; showApiError(root, 'analyse', body); return; }
    const tbody = $('analyse-results'); tbody.replaceChildren();
    $('analyse-status').textContent = body.note ||
      `${body.player}: ${body.placements.length} placements, best first (higher value is better)`;
    body.placements.forEach((p, i) => {
      const tr = document.createElement('tr');
      tr.dataset.x = p.x; tr.dataset.y = p.y; tr.dataset.orientation = p.orientation;
      // The terms that weigh (those under 0.05 either way are left out), largest first.
      const terms = p.terms.filter((t) => Math.abs(t.value) >= 0.05)
        .sort((a, b) => Math.abs(b.value) - Math.abs(a.value))
        .map((t) => `${t.name.replaceAll('_', ' ')} ${t.value >= 0 ? '+' : ''}${t.value.toFixed(1)}`).join(', ');
      for (const v of [i + 1, p.rotation, p.columns, p.value.toFixed(2), terms || '—', p.clears || '', p.buttons.length, p.sequence]) {
        const td = document.createElement('td'); td.textContent = v; tr.append(td);
      }
      tr.children[4].className = 'terms';
      const td = document.createElement('td');
      const b = document.createElement('button'); b.textContent = 'Animate';
      b.onclick = (e) => { e.stopPropagation(); animate(p); };
      td.append(b); tr.append(td);
      tr.tabIndex = 0;
      tr.onclick = tr.onkeydown = (e) => {
        if (e.type === 'keydown' && e.key !== 'Enter') return;
        for (const row of tbody.children) row.classList.remove('selected');
        tr.classList.add('selected'); shown = p; animation = null; draw();
      };
      tbody.append(tr);
    });
    followUp = body.follow_up ? { ...body.follow_up, after: body.placements[0] } : null;
    $('analyse-follow-up').textContent = body.follow_up
      ? `Then the next piece: ${body.follow_up.rotation} in columns ${body.follow_up.columns} (dashed blue), value ${body.follow_up.value.toFixed(2)}` : '';
    if (body.placements.length) { shown = body.placements[0]; tbody.children[0].classList.add('selected'); }
    draw();
  }
  $('analyse-run').onclick = run;
  $('analyse-level').addEventListener('keydown', (e) => { if (e.key === 'Enter') run(); });
  $('analyse-link').onclick = async () => {
    const url = link();
    history.replaceState(null, '', url);
    try { await navigator.clipboard.writeText(url); $('analyse-status').textContent = 'link copied'; } catch {
      $('analyse-status').textContent = 'link: ' + url;
    }
  };

  // A link restores the view and runs the analysis.
  const query = new URLSearchParams(location.hash.split('?')[1] || '');
  playerSelect($('analyse-player'), $('analyse-player-about'), query.get('player')).then(() => {
    if (!query.has('board')) { draw(); return; }
    if (!decodeBoard(query.get('board'), cells)) showError(root, 'analyse', 'board', 'the link\'s board is not 60 hex digits');
    const set = (id, v) => { if (v !== null) $(id).value = v; };
    set('analyse-piece', query.get('piece')); set('analyse-next', query.get('next'));
    set('analyse-level', query.get('level')); set('analyse-input', query.get('input'));
    if (query.has('das')) $('analyse-das').checked = query.get('das') !== '0';
    draw(); run();
  });
  draw();
  window.playfieldAnalyse = { cells, link, fromScreenshot };
  return () => { clearInterval(timer); delete window.playfieldAnalyse; };
}
