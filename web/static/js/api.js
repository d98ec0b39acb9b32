// The transport: the only module that talks to the server. Every panel goes
// through these functions. It is chosen once, at start, by site.json beside
// index.html: `nqueens serve` ships {"transport": "http"}, and the page
// speaks HTTP to it; `nqueens site` writes {"transport": "wasm", …}, and the
// same requests go to the server compiled to WebAssembly in a Web Worker
// (wasm.js), with no request to /api/. Only the fetch behind send differs,
// and how an answer becomes a URL for a picture or a download.
//
//   kind                                     'http' or 'wasm'
//   site                                     site.json (sizes of the module)
//   getJSON(path, params, {signal})          → the decoded answer
//   postJSON(path, body, {signal})           → the decoded answer
//   deleteJSON(path, {signal})               → the decoded answer
//   stream(path, params, onEvent, {signal})  → resolves when the stream ends;
//                                              onEvent(name, data) per event
//   open(path, params, {signal})             → the Response of a GET whose
//                                              body the caller reads
//   href(path, params)                       → path with its query
//   fileURL(path, params, {signal})          → a URL for <img src>
//   downloadLink(a, path, params, onError)   → makes link a download the answer
//   onReachability(fn)                       → fn(true|false) when the server
//                                              stops or starts answering
//   checkNow()                               → asks the server at once (a
//                                              stream that broke off)
//
// Over HTTP the page asks GET /api/ping every second while it is shown (a
// heartbeat), so that a server that went away is seen within two seconds
// even while nothing else is asked, and seen back as soon as it answers.
//
// Errors: an ApiError carries the server's one-line message and status; a
// server that cannot be reached gives an ApiError with status 0.
//
// Counts are JSON numbers however large (docs/json.md); every answer is read
// with parseJSON, which gives an integer past 2^53 as a BigInt, exact.
//
// Every request names the page's language (?lang=, and Accept-Language),
// in which the server writes the prose of its answers: step sentences,
// lessons, errors. In the address, so that no cache gives an answer in
// another language, and so that pictures and downloads carry it too.

import { booted } from './boot.js';
import { lang, t } from './i18n.js';
import { splitEvents } from './sse.js';
import { wasmTransport } from './wasm.js';

// parseJSON is JSON.parse that keeps integers past 2^53 exact, as BigInts:
// from the number's source text, which the reviver gets in browsers that
// have it (JSON.rawJSON marks them), and elsewhere by quoting every such
// integer of the raw text first (strings are matched whole, so a digit run
// inside one is left alone).
const sourceText = typeof JSON.rawJSON === 'function';
const bigMark = '\u0000big:'; // a NUL, which no answer's text holds: written \u0000 in JSON
export function parseJSON(text) {
  if (!sourceText) {
    text = text.replace(/"(?:[^"\\]|\\.)*"|(?<![.\d])-?\d{16,}(?![.\deE])/g, (m) => (m[0] === '"' ? m : `"\\u0000big:${m}"`));
  }
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    if (typeof value === 'string' && value.startsWith(bigMark)) {
      const digits = value.slice(bigMark.length);
      return Number.isSafeInteger(Number(digits)) ? Number(digits) : BigInt(digits);
    }
    return value;
  });
}

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

const boot = await booted;
export const { site } = boot;
export const kind = site.transport === 'wasm' ? 'wasm' : 'http';
const transport = kind === 'wasm' ? wasmTransport(site, boot.solver) : {
  fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
  get down() { return t('page.api.down', { Command: 'nqueens serve' }); },
};

// onProgress(fn) has fn({loaded, total, cached}) called while the static
// build's solver downloads; noWasm() says the browser cannot run it.
export const onProgress = (fn) => { if (transport.onProgress) transport.onProgress(fn); };
export const noWasm = () => !!transport.noWasm;

const listeners = new Set();
let reachable = true;

export function onReachability(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function setReachable(on) {
  if (on === reachable) return;
  reachable = on;
  for (const fn of listeners) fn(on);
}

// The heartbeat: a ping a second while the page is visible, each given
// 1.5 s to answer.
const beatEvery = 1000;
let beatTimer = 0;
async function beat() {
  clearTimeout(beatTimer);
  beatTimer = 0;
  if (document.visibilityState === 'visible') {
    try {
      const res = await transport.fetch('/api/ping', { signal: AbortSignal.timeout(1500), cache: 'no-store' });
      // A proxy in front of a server that has gone answers 502 to 504.
      setReachable(res.status < 502 || res.status > 504);
    } catch {
      setReachable(false);
    }
  }
  if (!beatTimer) beatTimer = setTimeout(beat, beatEvery);
}

export function checkNow() {
  if (kind === 'http') beat();
}

if (kind === 'http') {
  beatTimer = setTimeout(beat, beatEvery);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') beat(); });
}

export function href(path, params = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null) q.set(k, String(v));
  }
  q.set('lang', lang());
  return `${path}?${q}`;
}

// withLang is url with the page's language, if it does not name one.
const withLang = (url) => (/[?&]lang=/.test(url) ? url : `${url}${url.includes('?') ? '&' : '?'}lang=${lang()}`);

// busyTries is how often a GET answered 429 (all the server's job slots
// taken, often by streams of a page just left) is tried again, after the
// Retry-After the server asks for.
const busyTries = 8;

// send makes one request; a network failure (not an error status) marks the
// server unreachable.
async function send(url, init) {
  const headers = new Headers(init.headers);
  headers.set('Accept-Language', lang());
  init = { ...init, headers };
  url = withLang(url);
  for (let tries = 1; ; tries++) {
    let res;
    try {
      res = await transport.fetch(url, init);
    } catch (err) {
      if (init.signal && init.signal.aborted) throw err;
      setReachable(false);
      throw new ApiError(transport.down, 0);
    }
    setReachable(true);
    if (res.status !== 429 || (init.method && init.method !== 'GET') || tries === busyTries) return res;
    const wait = 1000 * (Number(res.headers.get('Retry-After')) || 1);
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, wait);
      if (init.signal) init.signal.addEventListener('abort', () => { clearTimeout(timer); reject(init.signal.reason); }, { once: true });
    });
  }
}

async function decode(res) {
  const body = await res.text().then(parseJSON).catch(() => null);
  if (!res.ok) {
    throw new ApiError((body && body.error) || `${res.status} ${res.statusText}`, res.status);
  }
  return body;
}

// fileURL is a URL of the answer of path for an <img>: the API's own
// address over HTTP, an object URL of the answer in the static build (free
// it with URL.revokeObjectURL when the picture goes).
export async function fileURL(path, params = {}, { signal } = {}) {
  if (kind === 'http') return href(path, params);
  const res = await send(href(path, params), { signal });
  if (!res.ok) await decode(res);
  return URL.createObjectURL(await res.blob());
}

// downloadLink makes the link a download the answer of path. Over HTTP it
// is the API's address (the server names the file); in the static build the
// answer is made when the link is followed, and the file is named as the
// server names it. onError(err) hears of a failure.
export function downloadLink(a, path, params, onError) {
  if (kind === 'http') {
    a.href = href(path, params);
    return;
  }
  a.href = '#';
  a.onclick = async (e) => {
    e.preventDefault();
    try {
      const res = await send(href(path, params), {});
      if (!res.ok) await decode(res);
      const url = URL.createObjectURL(await res.blob());
      const save = document.createElement('a');
      save.href = url;
      save.download = (/filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '') || [])[1] || '';
      save.click();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (err) {
      onError(err);
    }
  };
}

export async function getJSON(path, params = {}, { signal } = {}) {
  return decode(await send(href(path, params), { signal }));
}

export async function postJSON(path, body, { signal } = {}) {
  return decode(await send(path, {
    method: 'POST', signal,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }));
}

export async function deleteJSON(path, { signal } = {}) {
  return decode(await send(path, { method: 'DELETE', signal }));
}

// open sends a GET and returns its Response, whose body the caller reads;
// an error status becomes an ApiError.
export async function open(path, params, { signal } = {}) {
  const res = await send(href(path, params), { signal });
  if (!res.ok) await decode(res);
  return res;
}

// stream reads a text/event-stream with fetch (rather than EventSource, which
// reconnects by itself when a stream ends) and calls onEvent(name, data) for
// each event; the default event's name is 'message'.
export async function stream(path, params, onEvent, { signal } = {}) {
  const res = await send(href(path, params), { signal });
  if (!res.ok) await decode(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (err) {
      if (signal && signal.aborted) throw err;
      checkNow();
      return; // the connection broke: the caller sees a stream without its end
    }
    if (chunk.done) return;
    buf = splitEvents(buf + chunk.value, (name, data) => onEvent(name, parseJSON(data)));
  }
}
