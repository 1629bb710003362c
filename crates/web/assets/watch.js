// Watch: the NES AI plays live; frames arrive over a WebSocket.
import { drawFrame, makeCanvas, loadPieces, html } from '/assets/nes.js';

export function mount(root) {
  root.append(html(`
  <div class="controls">
    <label>Start level <input id="watch-level" type="number" min="0" max="19" value="18"></label>
    <label>Seed <input id="watch-seed" type="number" min="0" value="1"></label>
    <label>Player <select id="watch-player">
      <option value="birken">Birken, two-piece lookahead</option>
      <option value="birken-1">Birken, current piece only</option></select></label>
    <label>Input <select id="watch-input">
      <option>X</option><option selected>X.</option><option>X..</option><option>X...</option><option>X....</option></select></label>
    <label><input id="watch-das" type="checkbox" checked> DAS</label>
    <label>Reaction <input id="watch-reaction" type="number" min="0" max="200" value="18"> frames</label>
    <button id="watch-start">New game</button>
  </div>
  <div class="controls">
    <label>Speed <select id="watch-speed">
      <option value="0.25">×¼</option><option value="0.5">×½</option><option value="1" selected>×1</option>
      <option value="2">×2</option><option value="4">×4</option><option value="16">×16</option><option value="1024">max</option></select></label>
    <button id="watch-pause">Pause</button>
    <button id="watch-step" disabled>Step</button>
    <span class="figures"><span>Score <b id="watch-score">0</b></span><span>Lines <b id="watch-lines">0</b></span>
    <span>Level <b id="watch-level-now">0</b></span><span>Frame <b id="watch-frame">0</b></span></span>
  </div>
  <div id="watch-screen"></div>
  <div class="status" id="watch-status"></div>
  <div class="error" id="watch-error"></div>`));
  const $ = (id) => root.querySelector('#' + id);
  const { canvas, g } = makeCanvas(3);
  canvas.id = 'watch-canvas';
  $('watch-screen').append(canvas);
  let socket = null, paused = false, looks = null, closed = false;

  function send(msg) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(msg)); }

  function start() {
    if (socket) { socket.onclose = null; socket.close(); }
    $('watch-error').textContent = '';
    paused = false; $('watch-pause').textContent = 'Pause'; $('watch-step').disabled = true;
    const q = new URLSearchParams({
      level: $('watch-level').value, seed: $('watch-seed').value, player: $('watch-player').value,
      input: $('watch-input').value, das: $('watch-das').checked, reaction: $('watch-reaction').value,
      speed: $('watch-speed').value,
    });
    // A bad setting is refused before the upgrade; ask over HTTP first to show its message.
    fetch('/api/watch/check?' + q).then(async (r) => {
      if (r.status === 400) { $('watch-error').textContent = (await r.json()).error; return; }
      if (closed) return;
      socket = new WebSocket(`ws://${location.host}/ws/watch?${q}`);
      socket.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.error) { $('watch-error').textContent = m.error; return; }
        const f = m.frame;
        drawFrame(g, f, looks);
        $('watch-score').textContent = f.score; $('watch-lines').textContent = f.lines;
        $('watch-level-now').textContent = f.level; $('watch-frame').textContent = f.frame;
        $('watch-status').textContent = `${m.player} · speed ×${m.speed}` + (m.paused ? ' · paused' : '') +
          (m.finished ? ' · ' + m.finished : '');
      };
      socket.onclose = () => { if (!closed) $('watch-status').textContent += ' · disconnected'; };
    });
  }
  $('watch-start').onclick = start;
  $('watch-speed').onchange = () => send({ speed: Number($('watch-speed').value) });
  $('watch-pause').onclick = () => {
    paused = !paused; send({ pause: paused });
    $('watch-pause').textContent = paused ? 'Resume' : 'Pause'; $('watch-step').disabled = !paused;
  };
  $('watch-step').onclick = () => send({ step: 1 });
  loadPieces().then((l) => { looks = l; start(); });
  return () => { closed = true; if (socket) { socket.onclose = null; socket.close(); } };
}
