// Replay: an .fm2 movie uploaded (file picker or drag and drop), shown frame by frame with the
// buttons held and the game's variables decoded; past the movie's last input the game runs on
// with no input until it ends, so a TAS's result shows.
import { drawFrame, makeCanvas, loadPieces, html } from '/assets/nes.js';
import { requestJson, controllerHtml, showButtons, renderStats, dasMeterHtml, showDas } from '/assets/ui.js';

const SPEEDS = [['0.25', '×¼'], ['0.5', '×½'], ['1', '×1'], ['2', '×2'], ['4', '×4'], ['8', '×8']];

export function mount(root) {
  root.append(html(`
  <div class="drop" id="replay-drop">
    <label>Drop an .fm2 movie here, or choose one: <input id="replay-file" type="file" accept=".fm2"></label>
  </div>
  <div class="error" id="replay-error" role="alert"></div>
  <div class="layout">
    <div id="replay-screen"></div>
    <div class="panel">
      <div class="controls">
        <button id="replay-play" disabled title="Space">Play</button>
        <button id="replay-back" disabled title="comma (,)">◀ frame</button>
        <button id="replay-forward" disabled title="period (.)">frame ▶</button>
        <label class="field">Speed <select id="replay-speed">${SPEEDS.map(([v, l]) => `<option value="${v}"${v === '1' ? ' selected' : ''}>${l}</option>`).join('')}</select></label>
      </div>
      <div class="controls">
        <button id="replay-next-lock" disabled title="l">Next lock</button>
        <button id="replay-next-clear" disabled title="c">Next line clear</button>
        <button id="replay-next-level" disabled title="v">Next level</button>
        <button id="replay-end" disabled title="End">End</button>
      </div>
      <input id="replay-slider" type="range" min="0" max="0" value="0" disabled aria-label="frame" style="width:100%">
      <div class="figures"><span>Frame <b id="replay-frame">0</b> / <b id="replay-frames">0</b></span>
        <span>Score <b id="replay-score">0</b></span><span>Lines <b id="replay-lines">0</b></span>
        <span>Level <b id="replay-level">0</b></span></div>
      <div class="controls" style="margin-top:.4em">${controllerHtml('replay-pad')}${dasMeterHtml('replay-das')}<span class="muted" id="replay-input-note"></span></div>
      <dl class="state" id="replay-state" aria-live="off"></dl>
      <div class="status" id="replay-status" aria-live="polite"></div>
      <div class="figures" id="replay-stats"></div>
      <canvas id="replay-graph" width="360" height="100" role="img" aria-label="score by lines"></canvas>
      <p class="muted">Keys: Space play/pause, , and . a frame back/forward, l next lock, c next line clear, v next level.</p>
    </div>
  </div>`));
  const $ = (id) => root.querySelector('#' + id);
  const { canvas, g } = makeCanvas(2, 'the movie\'s NES screen at the chosen frame');
  canvas.id = 'replay-canvas';
  $('replay-screen').append(canvas);
  let looks = null, movie = null, playing = false, inFlight = false, wanted = null, timer = null, current = 0;
  loadPieces().then((l) => { looks = l; });

  async function upload(file) {
    $('replay-error').textContent = ''; $('replay-status').textContent = 'replaying ' + file.name + '…';
    const { ok, body } = await requestJson('/api/replay?name=' + encodeURIComponent(file.name), { method: 'POST', body: file });
    if (!ok) {
      $('replay-status').textContent = ''; $('replay-error').textContent = body.error;
      return; // the movie shown stays
    }
    movie = body;
    if (playing) $('replay-play').click();
    $('replay-status').textContent = `${movie.name}: ${movie.input_frames} input frames` +
      (movie.frames > movie.input_frames ? ` + ${movie.frames - movie.input_frames} run on with no input` : '') +
      `; final score ${movie.score}, lines ${movie.lines}, level ${movie.level}` + (movie.ending ? ` (${movie.ending})` : '');
    if (movie.stopped) $('replay-error').textContent = movie.stopped;
    $('replay-frames').textContent = movie.frames;
    const s = $('replay-slider'); s.max = movie.frames; s.value = 0; s.disabled = false;
    for (const id of ['replay-play', 'replay-end', 'replay-back', 'replay-forward', 'replay-next-lock', 'replay-next-clear', 'replay-next-level']) $(id).disabled = false;
    showStats(movie.stats);
    show(0);
  }

  const showStats = (st) => renderStats($('replay-stats'), $('replay-graph'), st);

  // Fetches frame n; while one request runs, only the latest wanted frame is kept.
  async function show(n) {
    if (!movie) return;
    n = Math.max(0, Math.min(movie.frames, n));
    if (inFlight) { wanted = n; return; }
    inFlight = true;
    try {
      const { ok, body } = await requestJson(`/api/replay/${movie.id}/frame/${n}`);
      if (!ok) { $('replay-error').textContent = body.error; return; }
      current = n; $('replay-slider').value = n;
      drawFrame(g, body.frame, looks);
      showButtons($('replay-pad'), body.buttons);
      showDas($('replay-das'), body.state['DAS charge']);
      $('replay-input-note').textContent = [body.past_input ? 'past the last input: no buttons' : '', body.note || '']
        .filter((s) => s).join(' · ');
      $('replay-frame').textContent = n;
      $('replay-score').textContent = body.frame.score; $('replay-lines').textContent = body.frame.lines;
      $('replay-level').textContent = body.frame.level;
      const dl = $('replay-state'); dl.replaceChildren();
      for (const [k, v] of Object.entries(body.state)) {
        const dt = document.createElement('dt'); dt.textContent = k;
        const dd = document.createElement('dd'); dd.textContent = v; dd.dataset.key = k;
        dl.append(dt, dd);
      }
    } finally {
      inFlight = false;
      if (wanted !== null) { const w = wanted; wanted = null; show(w); }
    }
  }
  const nextOf = (list) => { const f = list.find((x) => x > current); if (f !== undefined) show(f); };

  $('replay-file').onchange = (e) => { if (e.target.files[0]) upload(e.target.files[0]); };
  const drop = $('replay-drop');
  drop.ondragover = (e) => { e.preventDefault(); drop.classList.add('over'); };
  drop.ondragleave = () => drop.classList.remove('over');
  drop.ondrop = (e) => {
    e.preventDefault(); drop.classList.remove('over');
    if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]);
  };
  $('replay-slider').oninput = (e) => show(Number(e.target.value));
  $('replay-end').onclick = () => show(movie.frames);
  $('replay-back').onclick = () => show(current - 1);
  $('replay-forward').onclick = () => show(current + 1);
  $('replay-next-lock').onclick = () => nextOf(movie.marks.locks);
  $('replay-next-clear').onclick = () => nextOf(movie.marks.clears);
  $('replay-next-level').onclick = () => nextOf(movie.marks.levels);
  const tick = () => {
    clearInterval(timer);
    if (!playing) return;
    const speed = Number($('replay-speed').value);
    const every = Math.max(1, Math.round(speed)); // frames per tick above ×1
    timer = setInterval(() => {
      if (current >= movie.frames) { $('replay-play').click(); return; }
      show(current + every);
    }, 1000 / 60 / Math.min(speed, 1));
  };
  $('replay-play').onclick = () => {
    playing = !playing; $('replay-play').textContent = playing ? 'Pause' : 'Play'; tick();
  };
  $('replay-speed').onchange = tick;
  function onKey(e) {
    if (!movie || ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(e.target.tagName)) return;
    const keys = { ' ': 'replay-play', ',': 'replay-back', '.': 'replay-forward', l: 'replay-next-lock',
      c: 'replay-next-clear', v: 'replay-next-level', End: 'replay-end' };
    if (keys[e.key]) { e.preventDefault(); $(keys[e.key]).click(); }
  }
  window.addEventListener('keydown', onKey);
  return () => { clearInterval(timer); window.removeEventListener('keydown', onKey); };
}
