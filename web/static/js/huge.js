// Huge N: one solution of a huge board, drawn by the server as a picture
// (queen density per pixel past 1000 rows), with download links. The
// picture and the files come through the transport (api.fileURL,
// api.downloadLink), which in the static build makes them in the browser.

import * as api from './api.js';
import { readInt, setRange } from './field.js';
import { $, fmt, setStatus } from './text.js';

export class HugePanel {
  constructor(limits, onURL) {
    this.onURL = onURL;
    this.range = setRange('huge-n', 1, Math.min(limits.max_solve_n, limits.max_render_n));
    this.seedRange = setRange('huge-seed', 0, 2 ** 31 - 1);
    $('huge-form').addEventListener('submit', (e) => { e.preventDefault(); this.solve(); });
    const seed = () => { $('huge-seed').disabled = $('huge-method').value !== 'random'; };
    $('huge-method').addEventListener('change', seed);
    seed();
  }

  enter(params) {
    for (const k of ['n', 'method', 'seed']) if (params.get(k)) $('huge-' + k).value = params.get(k);
    $('huge-seed').disabled = $('huge-method').value !== 'random';
  }

  leave() {}

  urlState() {
    const q = { n: $('huge-n').value, method: $('huge-method').value };
    if (q.method === 'random') q.seed = $('huge-seed').value;
    return q;
  }

  async solve() {
    const n = readInt('huge-n', ...this.range);
    const method = $('huge-method').value;
    const seed = method === 'random' ? readInt('huge-seed', ...this.seedRange, 'The seed') : undefined;
    if (n === null || seed === null) return;
    this.onURL();
    const q = { n, method, seed };
    const img = $('huge-img');
    const go = $('huge-go');
    const t0 = performance.now();
    go.disabled = true;
    setStatus($('huge-status'), `Solving N = ${fmt(n)}…`);
    $('huge-figure').hidden = true;
    $('huge-downloads').hidden = true;
    img.onload = () => {
      go.disabled = false;
      const s = ((performance.now() - t0) / 1000).toFixed(2);
      setStatus($('huge-status'), `Solved and verified N = ${fmt(n)} in ${s} s (picture included).`, 'good');
      $('huge-caption').textContent = n > 1000
        ? `The ${fmt(n)}×${fmt(n)} board, downsampled: each pixel is a block of squares, dark where it holds a queen.`
        : `The ${fmt(n)}×${fmt(n)} board.`;
      $('huge-figure').hidden = false;
      $('huge-downloads').hidden = false;
      $('huge').dataset.state = 'done';
    };
    const failed = (msg) => {
      go.disabled = false;
      setStatus($('huge-status'), msg, 'error');
      $('huge').dataset.state = 'error';
    };
    img.onerror = async () => {
      // An <img> does not show the error body; ask again for the message.
      let msg = 'The server could not draw this board.';
      try {
        await api.getJSON('/api/solve', { ...q, format: 'json' });
      } catch (err) {
        msg = err.message;
      }
      failed(msg);
    };
    $('huge').dataset.state = 'loading';
    img.alt = `One solution of the ${fmt(n)}×${fmt(n)} board`;
    URL.revokeObjectURL(img.src); // the last picture's, if the browser made it
    try {
      img.src = await api.fileURL('/api/solve', { ...q, format: 'png' });
    } catch (err) {
      failed(err.message);
      return;
    }
    const downloadFailed = (err) => setStatus($('huge-status'), err.message, 'error');
    for (const f of ['list', 'json', 'png']) api.downloadLink($('huge-dl-' + f), '/api/solve', { ...q, format: f, download: 1 }, downloadFailed);
  }
}
