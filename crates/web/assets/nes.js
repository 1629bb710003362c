// NES Tetris drawn in the game's look: the playfield in the level's colours, the falling piece,
// the statistics, the preview, score, lines and level. Frames come from the server (NesFrame).

export const TILE = 8;          // NES tiles are 8×8 pixels
export const WIDTH = 256;       // the NES picture
export const HEIGHT = 224;
export const FIELD_X = 96, FIELD_Y = 48; // the playfield's top-left pixel

let pieceLooks = null;
export async function loadPieces() {
  if (!pieceLooks) pieceLooks = await (await fetch('/api/nes/pieces')).json();
  return pieceLooks;
}

// One block as the ROM's tiles look: $7B white with a rim in colour 2; $7C colour 2 and $7D
// colour 3 solid with a white shine in the corner; the curtain as a grey bar.
export function drawTile(g, kind, x, y, colors, size = TILE) {
  const s = size / 8;
  if (kind === 0) return;
  if (kind === 4) {
    g.fillStyle = '#7c7c7c'; g.fillRect(x, y, 7 * s, 7 * s);
    g.fillStyle = '#bcbcbc'; g.fillRect(x, y + 2 * s, 7 * s, s); g.fillRect(x, y + 5 * s, 7 * s, s);
    return;
  }
  if (kind === 1) {
    g.fillStyle = colors[2]; g.fillRect(x, y, 7 * s, 7 * s);
    g.fillStyle = colors[1]; g.fillRect(x + s, y + s, 5 * s, 5 * s);
    g.fillRect(x, y, s, s);
    return;
  }
  g.fillStyle = kind === 2 ? colors[2] : colors[3];
  g.fillRect(x, y, 7 * s, 7 * s);
  g.fillStyle = colors[1];
  g.fillRect(x, y, s, s); g.fillRect(x + s, y + s, 2 * s, s); g.fillRect(x + s, y + 2 * s, s, s);
}

// The project's own pixel font: 5×7 glyphs on the NES's 8×8 grid (drawn here, not taken from
// the ROM's graphics), one string of 35 bits per glyph, row by row.
const GLYPHS = {
  '0': '01110100011001110101110011000101110', '1': '00100011000010000100001000010001110',
  '2': '01110100010000100110010001000011111', '3': '11111000100010000010000011000101110',
  '4': '00010001100101010010111110001000010', '5': '11111100001111000001000011000101110',
  '6': '00110010001000011110100011000101110', '7': '11111000010001000100010000100001000',
  '8': '01110100011000101110100011000101110', '9': '01110100011000101111000010001001100',
  A: '01110100011000111111100011000110001', B: '11110100011000111110100011000111110',
  C: '01110100011000010000100001000101110', D: '11100100101000110001100011001011100',
  E: '11111100001000011110100001000011111', F: '11111100001000011110100001000010000',
  G: '01110100011000010111100011000101111', H: '10001100011000111111100011000110001',
  I: '01110001000010000100001000010001110', J: '00111000100001000010000101001001100',
  K: '10001100101010011000101001001010001', L: '10000100001000010000100001000011111',
  M: '10001110111010110101100011000110001', N: '10001100011100110101100111000110001',
  O: '01110100011000110001100011000101110', P: '11110100011000111110100001000010000',
  Q: '01110100011000110001101011001001101', R: '11110100011000111110101001001010001',
  S: '01111100001000001110000010000111110', T: '11111001000010000100001000010000100',
  U: '10001100011000110001100011000101110', V: '10001100011000110001100010101000100',
  W: '10001100011000110101101011010101010', X: '10001100010101000100010101000110001',
  Y: '10001100011000101010001000010000100', Z: '11111000010001000100010001000011111',
  '-': '00000000000000011111000000000000000',
};

export function text(g, str, x, y, color = '#fff') {
  g.fillStyle = color;
  let cx = x;
  for (const ch of String(str).toUpperCase()) {
    const bits = GLYPHS[ch];
    if (bits) {
      for (let i = 0; i < 35; i++) if (bits[i] === '1') g.fillRect(cx + 1 + (i % 5), y + Math.floor(i / 5), 1, 1);
    }
    cx += 8;
  }
}

function box(g, x, y, w, h) {
  g.fillStyle = '#000'; g.fillRect(x, y, w, h);
  g.strokeStyle = '#a8a8a8'; g.lineWidth = 2; g.strokeRect(x + 1, y + 1, w - 2, h - 2);
}

function drawLook(g, look, cx, cy, colors, size) {
  for (const [dx, dy] of look.cells) {
    drawTile(g, look.tile, cx + dx * size, cy + dy * size, colors, size);
  }
}

const pad = (n, w) => String(n).padStart(w, '0');

// Draws `f` (a NesFrame) on the 2D context `g` at NES resolution (scale with setTransform).
export function drawFrame(g, f, looks) {
  const colors = f.colors;
  g.fillStyle = f.flash ? '#fcfcfc' : '#3c3c3c'; g.fillRect(0, 0, WIDTH, HEIGHT);
  // The level's colour shows in the backdrop pattern as on the NES.
  g.fillStyle = colors[3]; g.globalAlpha = 0.25; g.fillRect(0, 0, WIDTH, HEIGHT); g.globalAlpha = 1;

  box(g, 16, 16, 64, 24); text(g, f.game_type || 'A-TYPE', 24, 24);
  box(g, 88, 8, 96, 24); text(g, 'LINES-' + pad(f.lines, 3), 104, 16);
  box(g, FIELD_X - 8, FIELD_Y - 8, 96, 176);
  g.fillStyle = '#000'; g.fillRect(FIELD_X, FIELD_Y, 80, 160);
  for (let y = 0; y < 20; y++) {
    for (let x = 0; x < 10; x++) {
      const k = f.board.charCodeAt(y * 10 + x) - 48;
      drawTile(g, k, FIELD_X + x * TILE, FIELD_Y + y * TILE, colors);
    }
  }
  if (f.piece) {
    for (const [x, y] of f.piece) {
      if (y >= 0) drawTile(g, f.piece_tile, FIELD_X + x * TILE, FIELD_Y + y * TILE, colors);
    }
  }
  if (f.target) {
    g.strokeStyle = '#ffec40'; g.lineWidth = 1; g.setLineDash([2, 1]);
    for (const [x, y] of f.target) {
      if (y >= 0) g.strokeRect(FIELD_X + x * TILE + 0.5, FIELD_Y + y * TILE + 0.5, 7, 7);
    }
    g.setLineDash([]);
  }
  if (f.paused) { g.fillStyle = '#000'; g.fillRect(FIELD_X, FIELD_Y, 80, 160); text(g, 'PAUSE', FIELD_X + 20, FIELD_Y + 76); }

  box(g, 8, 56, 80, 160); text(g, 'STATISTICS', 8, 64);
  if (looks) {
    looks.forEach((look, i) => {
      drawLook(g, look, 28, 88 + i * 18, colors, 6);
      text(g, pad(f.stats[i], 3), 56, 84 + i * 18, '#e45c10');
    });
  }
  box(g, 184, 8, 64, 64);
  text(g, 'TOP', 192, 16); text(g, pad(f.top_score, 6), 192, 26);
  text(g, 'SCORE', 192, 42); text(g, pad(f.score, 6), 192, 52);
  box(g, 184, 96, 48, 48); text(g, 'NEXT', 192, 100);
  if (looks && f.next !== null && f.next !== undefined) drawLook(g, looks[f.next], 204, 120, colors, TILE);
  box(g, 184, 152, 48, 32); text(g, 'LEVEL', 192, 158); text(g, pad(f.level, 2), 200, 170);
  if (f.mode !== 'play' && f.mode !== 'demo') {
    f.mode.toUpperCase().split(' ').forEach((w, i) => text(g, w, FIELD_X + 4, FIELD_Y + 64 + i * 10));
  }
}

// A canvas for NES frames at an integer scale (CSS shrinks it to the screen, pixels kept square).
export function makeCanvas(scale = 3, label = 'the NES screen') {
  const c = document.createElement('canvas');
  c.className = 'screen';
  c.setAttribute('role', 'img');
  c.setAttribute('aria-label', label);
  c.width = WIDTH * scale; c.height = HEIGHT * scale;
  const g = c.getContext('2d');
  g.imageSmoothingEnabled = false;
  g.setTransform(scale, 0, 0, scale, 0, 0);
  return { canvas: c, g };
}

// Elements from HTML text (the views' static markup).
export function html(markup) {
  const t = document.createElement('template');
  t.innerHTML = markup.trim();
  return t.content;
}
