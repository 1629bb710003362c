// Watch: an NES player plays live; frames arrive over a WebSocket. A new game's settings are
// checked first: a refused one leaves the running game alone and says why beside the field.
import { drawFrame, makeCanvas, loadPieces, html } from '/assets/nes.js';
import { requestJson, field, clearErrors, showApiError, checkInteger, tapOptions, playerSelect,
  controllerHtml, showButtons, renderStats, dasMeterHtml, showDas } from '/assets/ui.js';

const SPEEDS = [['0.25', '×¼'], ['0.5', '×½'], ['1', '×1'], ['2', '×2'], ['4', '×4'], ['16', '×16'], ['1024', 'max']];

export function mount(root) {
  root.append(html(`
  <div class="layout">
    <div id="watch-screen"></div>
    <div class="panel">
      <div class="controls">
        ${field('watch', 'player', 'Player', '<select id="watch-player"></select>')}
        ${field('watch', 'level', 'Start level', '<input id="watch-level" type="number" min="0" max="19" value="18" inputmode="numeric">', '0-19')}
        ${field('watch', 'seed', 'Seed', '<input id="watch-seed" type="number" min="0" value="1" inputmode="numeric">', 'picks the pieces')}
      </div>
      <div class="muted" id="watch-player-about"></div>
      <div class="controls">
        ${field('watch', 'input', 'Tap speed', `<select id="watch-input">${tapOptions('X.')}</select>`, 'fastest new press')}
        ${field('watch', 'das', 'DAS', '<input id="watch-das" type="checkbox" checked>', 'may hold ◀ ▶ to auto-shift')}
        ${field('watch', 'reaction', 'Reaction', '<input id="watch-reaction" type="number" min="0" max="255" value="18" inputmode="numeric">', 'frames before it sees the next piece')}
        <button id="watch-start">New game</button>
      </div>
      <div class="error" id="watch-error" role="alert"></div>
      <div class="controls">
        <label class="field">Speed <select id="watch-speed">${SPEEDS.map(([v, l]) => `<option value="${v}"${v === '1' ? ' selected' : ''}>${l}</option>`).join('')}</select></label>
        <button id="watch-pause" title="Space">Pause</button>
        <button id="watch-step" disabled title="period (.)">Step</button>
        ${controllerHtml('watch-pad')}${dasMeterHtml('watch-das')}
      </div>
      <div class="figures"><span>Score <b id="watch-score">0</b></span><span>Lines <b id="watch-lines">0</b></span>
        <span>Level <b id="watch-level-now">0</b></span><span>Frame <b id="watch-frame">0</b></span></div>
      <div class="status" id="watch-status" aria-live="polite"></div>
      <div class="figures" id="watch-stats"></div>
      <canvas id="watch-graph" width="360" height="100" role="img" aria-label="score by lines"></canvas>
      <p class="muted">Keys: Space pause, . step a frame, + / − speed. The dotted outline is where the player means to lock the piece.</p>
    </div>
  </div>`));
  const $ = (id) => root.querySelector('#' + id);
  const { canvas, g } = makeCanvas(3, 'the NES game the player is playing');
  canvas.id = 'watch-canvas';
  $('watch-screen').append(canvas);
  let socket = null, paused = false, looks = null, closed = false, starting = false;
  window.playfieldWatch = { games: 0 };

  function send(msg) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(msg)); }

  // Checks the fields here, then on the server; only an accepted game replaces the running one.
  async function start() {
    if (starting) return;
    clearErrors(root);
    const level = checkInteger(root, 'watch', 'level', 'Start level', 0, 19);
    const seed = checkInteger(root, 'watch', 'seed', 'Seed', 0, Infinity);
    const reaction = checkInteger(root, 'watch', 'reaction', 'Reaction time (frames)', 0, 255);
    if (level === null || seed === null || reaction === null) return;
    const q = new URLSearchParams({
      level, seed: $('watch-seed').value.trim(), player: $('watch-player').value,
      input: $('watch-input').value, das: $('watch-das').checked, reaction, speed: $('watch-speed').value,
    });
    starting = true;
    const { ok, body } = await requestJson('/api/watch/check?' + q);
    starting = false;
    if (!ok) { showApiError(root, 'watch', body); return; }
    if (closed) return;
    if (socket) { socket.onclose = null; socket.close(); }
    paused = false; $('watch-pause').textContent = 'Pause'; $('watch-step').disabled = true;
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/watch?${q}`);
    renderStats($('watch-stats'), $('watch-graph'), { clears: [0, 0, 0, 0], tetris_rate: 0, burns: 0, longest_drought: 0, drought: 0, score_by_lines: [] });
    window.playfieldWatch.games += 1;
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.error) { $('watch-error').textContent = m.error; return; }
      const f = m.frame;
      drawFrame(g, f, looks);
      showButtons($('watch-pad'), m.buttons);
      showDas($('watch-das'), m.das);
      if (m.stats) renderStats($('watch-stats'), $('watch-graph'), m.stats);
      $('watch-score').textContent = f.score; $('watch-lines').textContent = f.lines;
      $('watch-level-now').textContent = f.level; $('watch-frame').textContent = f.frame;
      $('watch-status').textContent = `${m.player} · speed ×${m.speed}` + (m.paused ? ' · paused' : '') +
        (m.finished ? ' · ' + m.finished : '') + (m.note ? ' · ' + m.note : '');
    };
    socket.onclose = () => { if (!closed) $('watch-status').textContent += ' · disconnected'; };
  }
  const togglePause = () => {
    paused = !paused; send({ pause: paused });
    $('watch-pause').textContent = paused ? 'Resume' : 'Pause'; $('watch-step').disabled = !paused;
  };
  const step = () => { if (paused) send({ step: 1 }); };
  const speedBy = (d) => {
    const s = $('watch-speed'); const i = Math.max(0, Math.min(s.options.length - 1, s.selectedIndex + d));
    s.selectedIndex = i; send({ speed: Number(s.value) });
  };
  $('watch-start').onclick = start;
  for (const id of ['watch-level', 'watch-seed', 'watch-reaction']) {
    $(id).addEventListener('keydown', (e) => { if (e.key === 'Enter') start(); });
  }
  $('watch-speed').onchange = () => send({ speed: Number($('watch-speed').value) });
  $('watch-pause').onclick = togglePause;
  $('watch-step').onclick = step;
  function onKey(e) {
    if (['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(e.target.tagName)) return;
    if (e.key === ' ') { e.preventDefault(); togglePause(); } else if (e.key === '.') step();
    else if (e.key === '+' || e.key === '=') speedBy(1); else if (e.key === '-') speedBy(-1);
  }
  window.addEventListener('keydown', onKey);
  Promise.all([loadPieces(), playerSelect($('watch-player'), $('watch-player-about'))])
    .then(([l]) => { looks = l; start(); });
  return () => {
    closed = true; window.removeEventListener('keydown', onKey);
    if (socket) { socket.onclose = null; socket.close(); }
  };
}
