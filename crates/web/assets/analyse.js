// Analyse: edit a board (click or paint cells, or paste text), pick the pieces, level and input
// model, and get the AI's placements ranked with their cost and buttons; animate any of them.
import { drawTile, html } from '/assets/nes.js';

const CELL = 24;
const COLORS = ['#000', '#fcfcfc', '#0058f8', '#3cbcfc'];

export function mount(root) {
  root.append(html(`
  <div class="row">
    <div>
      <canvas id="analyse-board" width="${10 * CELL}" height="${20 * CELL}"></canvas>
      <div class="controls" style="margin-top:.5em">
        <button id="analyse-clear">Clear</button>
        <button id="analyse-to-text">Board → text</button>
        <button id="analyse-from-text">Text → board</button>
      </div>
      <textarea id="analyse-text" rows="21" cols="12" spellcheck="false"></textarea>
    </div>
    <div>
      <div class="controls">
        <label>Piece <select id="analyse-piece"></select></label>
        <label>Next <select id="analyse-next"><option value="">unknown</option></select></label>
        <label>Level <input id="analyse-level" type="number" min="0" max="255" value="18"></label>
        <label>Input <select id="analyse-input">
          <option>X</option><option selected>X.</option><option>X..</option><option>X...</option><option>X....</option></select></label>
        <label><input id="analyse-das" type="checkbox" checked> DAS</label>
        <button id="analyse-run">Analyse</button>
      </div>
      <div class="error" id="analyse-error"></div>
      <div class="status" id="analyse-status"></div>
      <table><thead><tr><th>#</th><th>x</th><th>y</th><th>orientation</th><th>cost</th><th>frames</th><th>buttons</th><th></th></tr></thead>
      <tbody id="analyse-results"></tbody></table>
    </div>
  </div>`));
  const $ = (id) => root.querySelector('#' + id);
  for (const p of 'TJZOSLI') {
    $('analyse-piece').append(new Option(p, p));
    $('analyse-next').append(new Option(p, p));
  }
  const cells = new Uint8Array(200);
  let shown = null, animation = null, timer = null;
  const canvas = $('analyse-board');
  const g = canvas.getContext('2d');

  function draw() {
    g.fillStyle = '#000'; g.fillRect(0, 0, canvas.width, canvas.height);
    g.strokeStyle = '#1c1c24';
    for (let x = 0; x <= 10; x++) { g.beginPath(); g.moveTo(x * CELL, 0); g.lineTo(x * CELL, 20 * CELL); g.stroke(); }
    for (let y = 0; y <= 20; y++) { g.beginPath(); g.moveTo(0, y * CELL); g.lineTo(10 * CELL, y * CELL); g.stroke(); }
    for (let i = 0; i < 200; i++) if (cells[i]) drawTile(g, 1, (i % 10) * CELL, Math.floor(i / 10) * CELL, COLORS, CELL);
    if (animation) {
      for (const [x, y] of animation) if (y >= 0) drawTile(g, 2, x * CELL, y * CELL, COLORS, CELL);
    } else if (shown) {
      g.strokeStyle = '#ffec40'; g.lineWidth = 3;
      for (const [x, y] of shown.cells) g.strokeRect(x * CELL + 2, y * CELL + 2, CELL - 4, CELL - 4);
      g.lineWidth = 1;
    }
  }

  // Painting: the first cell clicked decides whether the drag fills or empties.
  let paint = null;
  const cellAt = (e) => {
    const r = canvas.getBoundingClientRect();
    const x = Math.floor((e.clientX - r.left) / CELL), y = Math.floor((e.clientY - r.top) / CELL);
    return x >= 0 && x < 10 && y >= 0 && y < 20 ? y * 10 + x : null;
  };
  canvas.onmousedown = (e) => {
    const i = cellAt(e); if (i === null) return;
    paint = cells[i] ? 0 : 1; cells[i] = paint; shown = null; draw();
  };
  canvas.onmousemove = (e) => {
    if (paint === null) return;
    const i = cellAt(e); if (i !== null && cells[i] !== paint) { cells[i] = paint; draw(); }
  };
  window.addEventListener('mouseup', () => { paint = null; });

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
    const rows = $('analyse-text').value.split('\n').map((l) => l.trimEnd()).filter((l) => l.length);
    if (rows.length !== 20 || rows.some((r) => r.length !== 10)) {
      $('analyse-error').textContent = 'the text needs 20 rows of 10 cells (. empty, # block)';
      return;
    }
    $('analyse-error').textContent = '';
    rows.forEach((r, y) => [...r].forEach((c, x) => { cells[y * 10 + x] = c === '.' || c === ' ' ? 0 : 1; }));
    shown = null; draw();
  };
  $('analyse-clear').onclick = () => { cells.fill(0); shown = null; draw(); };

  function animate(p) {
    clearInterval(timer);
    let i = 0;
    timer = setInterval(() => {
      if (i >= p.path.length) { clearInterval(timer); animation = null; shown = p; draw(); return; }
      animation = p.path[i++]; draw();
    }, 1000 / 60);
  }

  $('analyse-run').onclick = async () => {
    $('analyse-error').textContent = ''; $('analyse-status').textContent = 'searching…';
    const request = {
      board: toText(), piece: $('analyse-piece').value, next: $('analyse-next').value || null,
      level: Number($('analyse-level').value), input: $('analyse-input').value, das: $('analyse-das').checked,
    };
    const r = await fetch('/api/analyse', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request),
    });
    const text = await r.text();
    let body; try { body = JSON.parse(text); } catch { body = { error: text }; }
    const tbody = $('analyse-results'); tbody.replaceChildren();
    if (!r.ok) { $('analyse-status').textContent = ''; $('analyse-error').textContent = body.error; return; }
    $('analyse-status').textContent = body.note || `${body.placements.length} placements, best first (lower cost is better)`;
    body.placements.forEach((p, i) => {
      const tr = document.createElement('tr');
      tr.dataset.x = p.x; tr.dataset.y = p.y; tr.dataset.orientation = p.orientation;
      for (const v of [i + 1, p.x, p.y, p.orientation, p.cost.toFixed(2), p.buttons.length, p.sequence]) {
        const td = document.createElement('td'); td.textContent = v; tr.append(td);
      }
      const td = document.createElement('td');
      const b = document.createElement('button'); b.textContent = 'Animate';
      b.onclick = (e) => { e.stopPropagation(); animate(p); };
      td.append(b); tr.append(td);
      tr.onclick = () => {
        for (const row of tbody.children) row.classList.remove('selected');
        tr.classList.add('selected'); shown = p; animation = null; draw();
      };
      tbody.append(tr);
    });
    if (body.placements.length) { shown = body.placements[0]; tbody.children[0].classList.add('selected'); }
    draw();
  };
  draw();
  return () => clearInterval(timer);
}
