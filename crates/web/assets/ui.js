// What every view shares: requests that always answer {ok, body} (the server's {error, field}
// or a message of our own), field checks before sending, messages beside the field at fault,
// and the controller display.

// Fetches `url`; the body is parsed as JSON whatever the status, and a failure of the network
// or a body that is not JSON becomes {error} too, so a caller never throws.
export async function requestJson(url, options) {
  let r;
  try { r = await fetch(url, options); } catch (e) {
    return { ok: false, status: 0, body: { error: 'the server cannot be reached: ' + e.message } };
  }
  const text = await r.text();
  let body;
  try { body = JSON.parse(text); } catch { body = { error: text.trim() || `${r.status} ${r.statusText}` }; }
  if (!r.ok && !body.error) body = { error: `${r.status} ${r.statusText}` };
  return { ok: r.ok, status: r.status, body };
}

export const postJson = (url, value) => requestJson(url, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value),
});

// A labelled field with its message slot: `${prefix}-${name}` is the input's id, and
// `${prefix}-${name}-error` the message's.
export function field(prefix, name, label, input, hint = '') {
  return `<label class="field" for="${prefix}-${name}"><span class="label">${label}</span>${input}` +
    (hint ? `<span class="hint">${hint}</span>` : '') +
    `<span class="field-error" id="${prefix}-${name}-error" aria-live="polite"></span></label>`;
}

// Clears every message of the view.
export function clearErrors(root) {
  for (const e of root.querySelectorAll('.field-error, .error')) e.textContent = '';
  for (const e of root.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
}

// Shows `message` beside the field `name`, or in the view's error line when there is no such
// field.
export function showError(root, prefix, name, message) {
  const slot = name && root.querySelector(`#${prefix}-${name}-error`);
  if (slot) {
    slot.textContent = message;
    const input = root.querySelector(`#${prefix}-${name}`);
    if (input) input.setAttribute('aria-invalid', 'true');
  } else {
    const line = root.querySelector(`#${prefix}-error`);
    if (line) line.textContent = message;
  }
}

// An {error, field} answer shown where it belongs.
export const showApiError = (root, prefix, body) => showError(root, prefix, body.field, body.error);

const shown = (v) => (v.trim() === '' ? 'empty' : JSON.stringify(v.trim()));

// Checks a whole-number field as the server does (same words); the number, or null after
// showing why not. `hi` may be Infinity.
export function checkInteger(root, prefix, name, label, lo, hi) {
  const input = root.querySelector(`#${prefix}-${name}`);
  const v = input.value;
  const n = Number(v);
  if (v.trim() !== '' && /^\s*\d+\s*$/.test(v) && n >= lo && n <= hi && Number.isSafeInteger(n)) return n;
  const range = hi === Infinity ? `from ${lo} up` : `from ${lo} to ${hi}`;
  showError(root, prefix, name, `${label} must be a whole number ${range}, not ${shown(v)}`);
  return null;
}

// Tap speeds: the input timeline and its rate.
export const TAP_SPEEDS = [
  ['X', '60 Hz (every frame)'], ['X.', '30 Hz'], ['X..', '20 Hz'], ['X...', '15 Hz'],
  ['X....', '12 Hz'], ['X.....', '10 Hz'],
];
export const tapOptions = (selected = 'X.') => TAP_SPEEDS.map(([v, l]) =>
  `<option value="${v}"${v === selected ? ' selected' : ''}>${l}</option>`).join('');

// The players (name + description), asked once.
let players = null;
export async function loadPlayers() {
  if (!players) {
    const { ok, body } = await requestJson('/api/players');
    players = ok ? body : [{ name: 'score', description: '' }];
  }
  return players;
}

// Fills a <select> with the players; the description of the chosen one goes to `describe`.
export async function playerSelect(select, describe, chosen) {
  const list = await loadPlayers();
  select.replaceChildren(...list.map((p) => new Option(p.name, p.name)));
  if (chosen && list.some((p) => p.name === chosen)) select.value = chosen;
  const update = () => {
    const p = list.find((q) => q.name === select.value);
    if (describe) describe.textContent = p ? p.description : '';
  };
  select.addEventListener('change', update);
  update();
}

// The controller: a d-pad and the four buttons, lit while held.
export function controllerHtml(id) {
  const b = (name, label) => `<span class="pad-${name}" data-button="${name}">${label}</span>`;
  return `<div class="pad" id="${id}" role="img" aria-label="buttons held this frame">` +
    b('up', '▲') + b('left', '◀') + b('right', '▶') + b('down', '▼') +
    b('select', 'SEL') + b('start', 'START') + b('b', 'B') + b('a', 'A') + '</div>';
}

const LETTERS = { R: 'right', L: 'left', D: 'down', U: 'up', T: 'start', S: 'select', B: 'b', A: 'a' };

// Lights the buttons held: an object {left: true, ...} or FCEUX letters ("RA", "." = none).
export function showButtons(pad, held) {
  let on = held || {};
  if (typeof held === 'string') {
    on = {};
    for (const c of held) if (LETTERS[c]) on[LETTERS[c]] = true;
  }
  const names = [];
  for (const e of pad.querySelectorAll('[data-button]')) {
    const lit = !!on[e.dataset.button];
    e.classList.toggle('on', lit);
    if (lit) names.push(e.dataset.button);
  }
  pad.setAttribute('aria-label', 'buttons held this frame: ' + (names.join(', ') || 'none'));
  pad.dataset.held = names.join(' ');
}

// The tetris rate, clears, burns, droughts (from the server's PlayStats) and the score by lines.
export function renderStats(line, graph, st) {
  const [s, d, t, q] = st.clears;
  line.replaceChildren(...[`Tetris rate ${(st.tetris_rate * 100).toFixed(0)}%`, `Clears 1×${s} 2×${d} 3×${t} 4×${q}`,
    `Burns ${st.burns} lines`, `Drought ${st.drought} (longest ${st.longest_drought}) pieces without an I`]
    .map((text) => { const e = document.createElement('span'); e.textContent = text; return e; }));
  const g = graph.getContext('2d');
  g.fillStyle = '#0d0d12'; g.fillRect(0, 0, graph.width, graph.height);
  g.fillStyle = '#aaa'; g.font = '10px sans-serif';
  const pts = st.score_by_lines;
  if (pts.length < 2) { g.fillText('score by lines: no line cleared yet', 8, 14); return; }
  const maxL = Math.max(...pts.map((p) => p[0]), 1);
  // The reference, up to the game's lines (interpolated between its published points).
  const ref = [];
  for (const [l, sc] of reference ? reference.score_by_lines : []) {
    if (l <= maxL) { ref.push([l, sc]); continue; }
    const [l0, s0] = ref[ref.length - 1];
    ref.push([maxL, s0 + (sc - s0) * (maxL - l0) / (l - l0)]);
    break;
  }
  const maxS = Math.max(...pts.map((p) => p[1]), ...ref.map((p) => p[1]), 1);
  const stroke = (points, color, dash) => {
    g.strokeStyle = color; g.lineWidth = 2; g.setLineDash(dash); g.beginPath();
    points.forEach(([l, sc], i) => {
      const x = 30 + (graph.width - 40) * l / maxL, y = graph.height - 16 - (graph.height - 26) * sc / maxS;
      if (i) g.lineTo(x, y); else g.moveTo(x, y);
    });
    g.stroke(); g.setLineDash([]);
  };
  if (ref.length > 1) stroke(ref, '#6a8', [4, 3]);
  stroke(pts, '#fc6', []);
  g.fillText(`score ${maxS.toFixed(0)}`, 32, 10); g.fillText(`lines ${maxL}`, graph.width - 60, graph.height - 3);
  if (ref.length > 1) { g.fillStyle = '#6a8'; g.fillText('dashed: ' + reference.name, 32, 22); }
}

// BetaTetris's published curve, asked once (the graph draws without it until it comes).
let reference = null;
requestJson('/api/nes/reference').then(({ ok, body }) => { if (ok) reference = body; });

// The DAS charge (`autorepeatX`, 0-16: a shift comes when it reaches 16), as a meter.
export const dasMeterHtml = (id) =>
  `<label class="field" title="DAS charge (autorepeatX, 0-16)">DAS <meter id="${id}" min="0" max="16" value="0"></meter></label>`;
export function showDas(meter, value) {
  if (value === undefined || value === null) return;
  meter.value = Number(value);
  meter.textContent = String(value);
}
