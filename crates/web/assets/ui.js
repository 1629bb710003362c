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
