// Replay: an .fm2 movie uploaded (file picker or drag and drop), shown frame by frame.
import { drawFrame, makeCanvas, loadPieces, html } from '/assets/nes.js';

export function mount(root) {
  root.append(html(`
  <div class="drop" id="replay-drop">
    Drop an .fm2 movie here, or <input id="replay-file" type="file" accept=".fm2">
  </div>
  <div class="error" id="replay-error"></div>
  <div class="controls">
    <button id="replay-play" disabled>Play</button>
    <button id="replay-end" disabled>End</button>
    <input id="replay-slider" type="range" min="0" max="0" value="0" style="width:40em" disabled>
    <span class="figures"><span>Frame <b id="replay-frame">0</b> / <b id="replay-frames">0</b></span>
    <span>Score <b id="replay-score">0</b></span><span>Lines <b id="replay-lines">0</b></span>
    <span>Level <b id="replay-level">0</b></span></span>
  </div>
  <div class="status" id="replay-status"></div>
  <div class="row"><div id="replay-screen"></div><pre id="replay-trace"></pre></div>`));
  const $ = (id) => root.querySelector('#' + id);
  const { canvas, g } = makeCanvas(2);
  canvas.id = 'replay-canvas';
  $('replay-screen').append(canvas);
  let looks = null, movie = null, playing = false, inFlight = false, wanted = null, timer = null;
  loadPieces().then((l) => { looks = l; });

  async function upload(file) {
    $('replay-error').textContent = ''; $('replay-status').textContent = 'replaying ' + file.name + '…';
    const r = await fetch('/api/replay?name=' + encodeURIComponent(file.name), { method: 'POST', body: file });
    const body = await r.json().catch(() => ({ error: `${r.status} ${r.statusText}` }));
    if (!r.ok) {
      movie = null; $('replay-status').textContent = ''; $('replay-error').textContent = body.error;
      for (const id of ['replay-play', 'replay-end', 'replay-slider']) $(id).disabled = true;
      return;
    }
    movie = body;
    $('replay-status').textContent = `${movie.name}: ${movie.frames} frames, final score ${movie.score}, ` +
      `lines ${movie.lines}, level ${movie.level}`;
    if (movie.stopped) $('replay-error').textContent = movie.stopped;
    $('replay-frames').textContent = movie.frames;
    const s = $('replay-slider'); s.max = movie.frames; s.value = 0; s.disabled = false;
    $('replay-play').disabled = false; $('replay-end').disabled = false;
    show(0);
  }

  // Fetches frame n; while one request runs, only the latest wanted frame is kept.
  async function show(n) {
    if (!movie) return;
    if (inFlight) { wanted = n; return; }
    inFlight = true;
    try {
      const r = await fetch(`/api/replay/${movie.id}/frame/${n}`);
      const body = await r.json();
      if (!r.ok) { $('replay-error').textContent = body.error; return; }
      drawFrame(g, body.frame, looks);
      $('replay-frame').textContent = body.frame.frame;
      $('replay-score').textContent = body.frame.score; $('replay-lines').textContent = body.frame.lines;
      $('replay-level').textContent = body.frame.level;
      $('replay-trace').textContent = JSON.stringify(body.trace, null, 1);
    } finally {
      inFlight = false;
      if (wanted !== null) { const w = wanted; wanted = null; show(w); }
    }
  }

  $('replay-file').onchange = (e) => { if (e.target.files[0]) upload(e.target.files[0]); };
  const drop = $('replay-drop');
  drop.ondragover = (e) => { e.preventDefault(); drop.classList.add('over'); };
  drop.ondragleave = () => drop.classList.remove('over');
  drop.ondrop = (e) => {
    e.preventDefault(); drop.classList.remove('over');
    if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]);
  };
  $('replay-slider').oninput = (e) => show(Number(e.target.value));
  $('replay-end').onclick = () => { $('replay-slider').value = movie.frames; show(movie.frames); };
  $('replay-play').onclick = () => {
    playing = !playing; $('replay-play').textContent = playing ? 'Pause' : 'Play';
    clearInterval(timer);
    if (playing) {
      timer = setInterval(() => {
        const s = $('replay-slider');
        if (Number(s.value) >= movie.frames) { $('replay-play').click(); return; }
        s.value = Number(s.value) + 1; show(Number(s.value));
      }, 1000 / 60);
    }
  };
  return () => clearInterval(timer);
}
