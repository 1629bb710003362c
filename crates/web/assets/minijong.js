// Minijong: the Mahjong solitaire with the mouse. The server keeps no game: each request sends the
// deal's seed and the pairs removed so far, so undo is dropping the last pair.
import { html } from '/assets/nes.js';
import { postJson, field, clearErrors, showApiError, checkInteger } from '/assets/ui.js';

const W = 58, H = 74;            // a tile's footprint on the 7×7 grid
const DX = 7, DY = 9;            // how far each level sits up and to the left
const X0 = 30, Y0 = 30;
const SUITS = [
  { name: 'dots', color: '#1d5fd1' },
  { name: 'bamboo', color: '#16813a' },
  { name: 'diamonds', color: '#c9252c' },
];

function tileRect(t) {
  return [X0 + t.col * W - t.level * DX, Y0 + t.row * H - t.level * DY, W - 3, H - 3];
}

// The face: suit from (face - 1) / 7, value 1-7 drawn as that many marks, and the value in the
// corner.
function drawFace(g, face, x, y, w, h) {
  const suit = SUITS[Math.floor((face - 1) / 7) % 3];
  const value = ((face - 1) % 7) + 1;
  const cols = value <= 3 ? 1 : 2, rows = Math.ceil(value / cols);
  g.fillStyle = suit.color; g.strokeStyle = suit.color;
  for (let i = 0; i < value; i++) {
    const c = cols === 1 ? 0 : i % 2, r = cols === 1 ? i : Math.floor(i / 2);
    const cx = x + w / 2 + (cols === 1 ? 0 : (c - 0.5) * 18);
    const cy = y + 16 + (h - 26) * (rows === 1 ? 0.5 : r / (rows - 1)) * 0.8 + 4;
    if (suit.name === 'dots') {
      g.beginPath(); g.arc(cx, cy, 5, 0, Math.PI * 2); g.fill();
    } else if (suit.name === 'bamboo') {
      g.fillRect(cx - 3, cy - 6, 6, 12);
    } else {
      g.beginPath(); g.moveTo(cx, cy - 6); g.lineTo(cx + 5, cy); g.lineTo(cx, cy + 6); g.lineTo(cx - 5, cy); g.fill();
    }
  }
  g.font = 'bold 11px sans-serif'; g.textBaseline = 'top';
  g.fillText(String(value), x + 4, y + 3);
}

export function mount(root) {
  root.append(html(`
  <div class="controls">
    ${field('mj', 'seed', 'Seed', '<input id="mj-seed" type="number" min="0" value="7" inputmode="numeric">', 'deals exactly this seed')}
    <button id="mj-new">Deal this seed</button>
    <button id="mj-random">Random winnable deal</button>
    <button id="mj-hint">Hint</button>
    <button id="mj-undo">Undo</button>
    <span class="figures"><span>Tiles left <b id="mj-left">0</b></span><span>Pairs removed <b id="mj-moves">0</b></span></span>
  </div>
  <div class="status" id="mj-status" aria-live="polite"></div>
  <div class="error" id="mj-error" role="alert"></div>
  <canvas id="mj-canvas" class="mj" width="${X0 * 2 + 7 * W}" height="${Y0 * 2 + 7 * H}" tabindex="0"
    role="img" aria-label="the Minijong tiles: arrow keys move between free tiles, Enter or Space picks one"></canvas>
  <p class="muted">Click (or tap) two free tiles with the same face to remove them. A tile is free when its left or right
  neighbour is empty or lies on another level. Dimmed tiles are not free. Keyboard: arrows move the pink cursor
  over free tiles, Enter or Space picks. A random deal is always winnable; a typed seed is dealt as it is.</p>`));
  const $ = (id) => root.querySelector('#' + id);
  const canvas = $('mj-canvas');
  const g = canvas.getContext('2d');
  let seed = 7, moves = [], state = null, selected = null, hint = null;

  function draw() {
    g.fillStyle = '#24543a'; g.fillRect(0, 0, canvas.width, canvas.height);
    if (!state) return;
    for (const t of state.tiles) {
      const [x, y, w, h] = tileRect(t);
      // The tile's body: a darker edge below and to the right shows its height.
      g.fillStyle = '#8d7a55'; g.fillRect(x + 3, y + 3, w, h);
      g.fillStyle = t.visible ? '#f6efdc' : '#d8d0bc'; g.fillRect(x, y, w, h);
      g.strokeStyle = '#5b4d33'; g.lineWidth = 1; g.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
      if (!t.visible) continue;
      drawFace(g, t.face, x, y, w, h);
      if (!t.free) { g.fillStyle = 'rgba(40,40,40,0.45)'; g.fillRect(x, y, w, h); }
      const mark = selected === t.pos ? '#f4c20d' : hint && hint.includes(t.pos) ? '#2de0ff'
        : cursor === t.pos ? '#ff7af5' : null;
      if (mark) { g.strokeStyle = mark; g.lineWidth = 4; g.strokeRect(x + 2, y + 2, w - 4, h - 4); g.lineWidth = 1; }
    }
  }

  async function request(path, body) {
    const { ok, body: json } = await postJson(path, body);
    return { ok, json };
  }

  async function load(newMoves, solvable = false) {
    const { ok, json } = await request('/api/minijong/state', { seed, solvable, moves: newMoves });
    if (!ok) { showApiError(root, 'mj', json); return false; }
    clearErrors(root);
    moves = newMoves; state = json; seed = json.seed; $('mj-seed').value = seed;
    selected = null; hint = null;
    $('mj-left').textContent = state.tiles_left; $('mj-moves').textContent = state.moves;
    $('mj-status').textContent = state.cleared ? 'You won: the board is clear!'
      : state.over ? 'No free pair left: game over. Undo or deal again.' : '';
    draw();
    return true;
  }

  function tileAt(mx, my) {
    let best = null;
    for (const t of state ? state.tiles : []) {
      if (!t.visible) continue;
      const [x, y, w, h] = tileRect(t);
      if (mx >= x && mx < x + w && my >= y && my < y + h && (!best || t.level > best.level)) best = t;
    }
    return best;
  }

  async function pick(t) {
    if (selected === null) { selected = t.pos; draw(); return; }
    if (selected === t.pos) { selected = null; draw(); return; }
    const pair = [selected, t.pos];
    selected = null;
    if (!(await load([...moves, pair]))) draw();
  }
  // The canvas may be scaled by CSS: positions are mapped back to its pixels.
  canvas.onclick = (e) => {
    const r = canvas.getBoundingClientRect();
    const t = tileAt((e.clientX - r.left) * canvas.width / r.width, (e.clientY - r.top) * canvas.height / r.height);
    if (t) pick(t);
  };
  // Keyboard: the cursor walks the free tiles in reading order (up/down by rows).
  let cursor = null;
  const freeTiles = () => (state ? state.tiles.filter((t) => t.visible && t.free).sort((a, b) => a.pos - b.pos) : []);
  canvas.onkeydown = (e) => {
    const free = freeTiles(); if (!free.length) return;
    let i = Math.max(0, free.findIndex((t) => t.pos === cursor));
    if (e.key === 'ArrowRight') i = (i + 1) % free.length;
    else if (e.key === 'ArrowLeft') i = (i - 1 + free.length) % free.length;
    else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const row = Math.floor(free[i].pos / 7) + (e.key === 'ArrowDown' ? 1 : -1);
      const j = free.findIndex((t) => Math.floor(t.pos / 7) === row);
      if (j >= 0) i = j;
    } else if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(free[i]); return; } else return;
    e.preventDefault(); cursor = free[i].pos; draw();
  };
  $('mj-new').onclick = async () => {
    clearErrors(root);
    const typed = checkInteger(root, 'mj', 'seed', 'Seed', 0, Infinity);
    if (typed === null) return;
    const before = seed; seed = typed;
    if (!(await load([], false))) seed = before;
  };
  $('mj-random').onclick = () => { seed = Math.floor(Math.random() * 1e9); load([], true); };
  $('mj-undo').onclick = () => { if (moves.length) load(moves.slice(0, -1)); };
  $('mj-hint').onclick = async () => {
    const { ok, json } = await request('/api/minijong/hint', { seed, solvable: false, moves });
    if (!ok) { showApiError(root, 'mj', json); return; }
    hint = json.hint;
    $('mj-status').textContent = hint ? 'Hint: the pair outlined in blue.' : 'No pair left.';
    draw();
  };
  // For tests and curious users: the state shown and the centre of a position's visible tile.
  window.playfieldMinijong = {
    state: () => ({ seed, moves, hint, selected, tiles: state && state.tiles, left: state && state.tiles_left }),
    center: (pos) => {
      const t = state.tiles.filter((t) => t.pos === pos && t.visible)[0];
      const [x, y, w, h] = tileRect(t);
      return [x + w / 2, y + h / 2];
    },
  };
  load([], true);
  return () => { delete window.playfieldMinijong; };
}
