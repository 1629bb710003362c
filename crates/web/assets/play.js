// Play: NES Tetris on the engine itself, with the keyboard, a gamepad (Gamepad API) or the
// on-screen buttons. The page sends the buttons held; the server steps the game at the NES's
// 60 Hz and sends every frame back. The ghost shows where a player would lock the piece; the
// game so far can be saved as an .fm2 movie.
import { drawFrame, makeCanvas, loadPieces, html } from '/assets/nes.js';
import { requestJson, field, clearErrors, showApiError, checkInteger, playerSelect, controllerHtml, showButtons } from '/assets/ui.js';

// The NES's button bits.
const A = 0x80, B = 0x40, SELECT = 0x20, START = 0x10, UP = 0x08, DOWN = 0x04, LEFT = 0x02, RIGHT = 0x01;
const KEYS = { ArrowLeft: LEFT, ArrowRight: RIGHT, ArrowUp: UP, ArrowDown: DOWN, x: A, X: A, z: B, Z: B, Enter: START, Shift: SELECT };

export function mount(root) {
  root.append(html(`
  <div class="layout">
    <div id="play-screen"></div>
    <div class="panel">
      <div class="controls">
        ${field('play', 'level', 'Start level', '<input id="play-level" type="number" min="0" max="19" value="9" inputmode="numeric">', '0-19')}
        ${field('play', 'seed', 'Seed', '<input id="play-seed" type="number" min="0" value="1" inputmode="numeric">')}
        ${field('play', 'player', 'Ghost from', '<select id="play-player"></select>')}
        <button id="play-start">New game</button>
      </div>
      <div class="error" id="play-error" role="alert"></div>
      <div class="controls">
        <label><input id="play-ghost" type="checkbox"> Show the suggestion (ghost)</label>
        <button id="play-save">Save .fm2</button>
        <a id="play-download" hidden>download</a>
      </div>
      <div class="controls">${controllerHtml('play-pad')}</div>
      <div class="figures"><span>Score <b id="play-score">0</b></span><span>Lines <b id="play-lines">0</b></span>
        <span>Level <b id="play-level-now">0</b></span><span>Frame <b id="play-frame">0</b></span></div>
      <div class="status" id="play-status" aria-live="polite"></div>
      <p class="muted">Keys: ← → move, ↓ soft drop, X rotate clockwise (A), Z counter-clockwise (B), Enter pause (Start).
        A gamepad works too. The rules are the NES game's, frame for frame: DAS charges after 16 frames held, then
        shifts every 6.</p>
      <div class="touch-pad" id="play-touch">
        <button data-bit="2" aria-label="left">◀</button><button data-bit="4" aria-label="down">▼</button>
        <button data-bit="1" aria-label="right">▶</button><button data-bit="64" aria-label="B: rotate counter-clockwise">B</button>
        <button data-bit="128" aria-label="A: rotate clockwise">A</button><button data-bit="16" aria-label="Start">START</button>
      </div>
    </div>
  </div>`));
  const $ = (id) => root.querySelector('#' + id);
  const { canvas, g } = makeCanvas(3, 'your NES game');
  canvas.id = 'play-canvas'; canvas.tabIndex = 0;
  $('play-screen').append(canvas);
  let socket = null, looks = null, closed = false, keys = 0, touch = 0, pad = 0, sent = -1, raf = 0;
  const state = { frame: null, fm2: null, fm2Frames: 0, saved: 0 };
  window.playfieldPlay = state;

  const send = (m) => { if (socket && socket.readyState === 1) socket.send(JSON.stringify(m)); };
  const update = () => {
    const held = keys | touch | pad;
    if (held !== sent) { sent = held; send({ buttons: held }); }
  };

  async function start() {
    clearErrors(root);
    const level = checkInteger(root, 'play', 'level', 'Start level', 0, 19);
    const seed = checkInteger(root, 'play', 'seed', 'Seed', 0, Infinity);
    if (level === null || seed === null) return;
    const q = new URLSearchParams({ level, seed: $('play-seed').value.trim(), player: $('play-player').value });
    const { ok, body } = await requestJson('/api/play/check?' + q);
    if (!ok) { showApiError(root, 'play', body); return; }
    if (closed) return;
    if (socket) { socket.onclose = null; socket.close(); }
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/play?${q}`);
    sent = -1;
    socket.onopen = () => { send({ ghost: $('play-ghost').checked }); update(); };
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.error) { $('play-error').textContent = m.error; return; }
      const f = m.frame;
      state.frame = f;
      drawFrame(g, f, looks);
      showButtons($('play-pad'), m.buttons);
      $('play-score').textContent = f.score; $('play-lines').textContent = f.lines;
      $('play-level-now').textContent = f.level; $('play-frame').textContent = f.frame;
      $('play-status').textContent = (f.game_over ? 'game over: the stack reached the top' : (m.finished || '')) +
        (m.note ? ' · ' + m.note : '');
      if (m.fm2) {
        state.fm2 = m.fm2; state.fm2Frames = m.fm2_frames; state.fm2Board = f.board; state.saved += 1;
        const a = $('play-download');
        if (a.href) URL.revokeObjectURL(a.href);
        a.href = URL.createObjectURL(new Blob([m.fm2], { type: 'text/plain' }));
        a.download = 'playfield-game.fm2'; a.hidden = false; a.textContent = `download (${m.fm2_frames} frames)`;
        a.click();
      }
    };
    socket.onclose = () => { if (!closed) $('play-status').textContent += ' · disconnected'; };
    canvas.focus();
  }

  function onKey(e) {
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName) && e.target.type !== 'checkbox') return;
    const bit = KEYS[e.key];
    if (!bit) return;
    e.preventDefault();
    keys = e.type === 'keydown' ? keys | bit : keys & ~bit;
    update();
  }
  window.addEventListener('keydown', onKey);
  window.addEventListener('keyup', onKey);
  const blur = () => { keys = 0; update(); };
  window.addEventListener('blur', blur);
  for (const b of root.querySelectorAll('#play-touch button')) {
    const bit = Number(b.dataset.bit);
    b.onpointerdown = (e) => { e.preventDefault(); touch |= bit; update(); };
    b.onpointerup = b.onpointercancel = b.onpointerleave = () => { touch &= ~bit; update(); };
  }
  // The Gamepad API: the standard mapping's d-pad (or left stick), right face button = A,
  // bottom = B, Select and Start.
  function pollPads() {
    let bits = 0;
    for (const gp of navigator.getGamepads ? navigator.getGamepads() : []) {
      if (!gp) continue;
      const p = (i) => gp.buttons[i] && gp.buttons[i].pressed;
      const [ax, ay] = [gp.axes[0] || 0, gp.axes[1] || 0];
      if (p(1)) bits |= A; if (p(0)) bits |= B; if (p(8)) bits |= SELECT; if (p(9)) bits |= START;
      if (p(12) || ay < -0.5) bits |= UP; if (p(13) || ay > 0.5) bits |= DOWN;
      if (p(14) || ax < -0.5) bits |= LEFT; if (p(15) || ax > 0.5) bits |= RIGHT;
    }
    if (bits !== pad) { pad = bits; update(); }
    raf = requestAnimationFrame(pollPads);
  }
  raf = requestAnimationFrame(pollPads);
  $('play-start').onclick = start;
  $('play-ghost').onchange = () => { send({ ghost: $('play-ghost').checked }); canvas.focus(); };
  $('play-save').onclick = () => { send('save'); canvas.focus(); };
  Promise.all([loadPieces(), playerSelect($('play-player'))]).then(([l]) => { looks = l; start(); });
  return () => {
    closed = true; cancelAnimationFrame(raf);
    window.removeEventListener('keydown', onKey); window.removeEventListener('keyup', onKey);
    window.removeEventListener('blur', blur);
    delete window.playfieldPlay;
    if (socket) { socket.onclose = null; socket.close(); }
  };
}
