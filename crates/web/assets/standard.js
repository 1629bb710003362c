// Standard Tetris (Colin Fahey's rules): watch an AI, or play with the keyboard.
import { drawTile, html } from '/assets/nes.js';
import { requestJson, field, clearErrors, showApiError, checkInteger } from '/assets/ui.js';

const CELL = 24;
const COLORS = { I: '#3cbcfc', O: '#f8b800', T: '#b53cfc', S: '#58d854', Z: '#f83800', J: '#0058f8', L: '#fc7460' };

export function mount(root) {
  root.append(html(`
  <div class="controls">
    ${field('std', 'mode', 'Mode', '<select id="std-mode"><option value="watch">watch an AI</option><option value="play">play (keyboard or buttons)</option></select>')}
    ${field('std', 'ai', 'AI', '<select id="std-ai"><option>dellacherie</option><option>el-tetris</option><option>bcts</option></select>')}
    ${field('std', 'seed', 'Seed', '<input id="std-seed" type="number" min="0" value="1" inputmode="numeric">')}
    ${field('std', 'level', 'Level', '<input id="std-level" type="number" min="1" max="10" value="1" inputmode="numeric">', '1-10')}
    ${field('std', 'speed', 'Speed', '<select id="std-speed"><option value="1">×1</option><option value="4" selected>×4</option><option value="16">×16</option><option value="256">×256</option></select>')}
    <button id="std-start">New game</button>
    <button id="std-pause">Pause</button>
  </div>
  <div class="error" id="std-error" role="alert"></div>
  <div class="layout">
    <canvas id="std-canvas" class="board" width="${10 * CELL}" height="${20 * CELL}" tabindex="0" role="img" aria-label="the Standard Tetris board"></canvas>
    <div class="panel">
      <p>Next</p><canvas id="std-next" width="${5 * CELL}" height="${4 * CELL}" role="img" aria-label="the next piece"></canvas>
      <p class="figures"><span>Score <b id="std-score">0</b></span><span>Lines <b id="std-lines">0</b></span>
      <span>Level <b id="std-level-now">0</b></span></p>
      <p class="muted">Keys: ← → move, ↑ rotate, ↓ or Space drop, p pause.</p>
      <div class="touch-pad" id="std-touch">
        <button data-control="left" aria-label="move left">◀</button><button data-control="rotate" aria-label="rotate">⟳</button>
        <button data-control="right" aria-label="move right">▶</button><button data-control="drop" aria-label="drop">▼</button>
      </div>
      <div class="status" id="std-status" aria-live="polite"></div>
    </div>
  </div>`));
  const $ = (id) => root.querySelector('#' + id);
  const g = $('std-canvas').getContext('2d');
  const gn = $('std-next').getContext('2d');
  let socket = null, paused = false, closed = false;
  const send = (m) => { if (socket && socket.readyState === 1) socket.send(JSON.stringify(m)); };
  const block = (ctx, x, y, color) => drawTile(ctx, 2, x * CELL, y * CELL, ['#000', '#fff', color, color], CELL);

  function draw(s) {
    g.fillStyle = '#000'; g.fillRect(0, 0, 10 * CELL, 20 * CELL);
    const top = s.height - 20; // the board may be taller than shown; draw its top 20 rows
    for (let y = 0; y < s.height; y++) for (let x = 0; x < s.width; x++) {
      if (s.board[y * s.width + x] === '1' && y - top >= 0) block(g, x, y - top, '#9a9aa8');
    }
    if (s.piece) for (const [x, y] of s.piece) if (y - top >= 0) block(g, x, y - top, COLORS[s.piece_kind]);
    gn.fillStyle = '#000'; gn.fillRect(0, 0, 5 * CELL, 4 * CELL);
    if (s.next) for (const [x, y] of s.next) block(gn, x + 2, y + 2, COLORS[s.next_kind]);
    if (s.paused) { g.fillStyle = '#fff'; g.font = 'bold 20px monospace'; g.fillText('PAUSE', 3 * CELL, 10 * CELL); }
    $('std-score').textContent = s.score; $('std-lines').textContent = s.lines; $('std-level-now').textContent = s.level;
    $('std-status').textContent = `${s.who}` + (s.game_over ? ` · game over: ${s.game_over}` : '');
  }

  // Checks the fields here, then on the server; only an accepted game replaces the running one.
  async function start() {
    clearErrors(root);
    const seed = checkInteger(root, 'std', 'seed', 'Seed', 0, Infinity);
    const level = checkInteger(root, 'std', 'level', 'Level', 1, 10);
    if (seed === null || level === null) return;
    const q = new URLSearchParams({
      mode: $('std-mode').value, ai: $('std-ai').value, seed: $('std-seed').value.trim(),
      level, speed: $('std-speed').value,
    });
    const { ok, body } = await requestJson('/api/standard/check?' + q);
    if (!ok) { showApiError(root, 'std', body); return; }
    if (closed) return;
    if (socket) { socket.onclose = null; socket.close(); }
    paused = false; $('std-pause').textContent = 'Pause';
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/standard?${q}`);
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.error) { $('std-error').textContent = m.error; return; }
      draw(m);
    };
    if ($('std-mode').value === 'play') $('std-canvas').focus();
  }
  for (const b of root.querySelectorAll('#std-touch button')) b.onclick = () => send(b.dataset.control);
  const keys = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'rotate', ArrowDown: 'drop', ' ': 'drop' };
  function onKey(e) {
    if (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT') return;
    if (keys[e.key]) { e.preventDefault(); send(keys[e.key]); }
    if (e.key === 'p') $('std-pause').click();
  }
  window.addEventListener('keydown', onKey);
  $('std-start').onclick = start;
  $('std-pause').onclick = () => { paused = !paused; send({ pause: paused }); $('std-pause').textContent = paused ? 'Resume' : 'Pause'; };
  $('std-speed').onchange = () => send({ speed: Number($('std-speed').value) });
  start();
  return () => { closed = true; window.removeEventListener('keydown', onKey); if (socket) { socket.onclose = null; socket.close(); } };
}
