// The WebAssembly transport of the page's static build (nqueens site): a
// fetch() whose server is nqueens itself, compiled to WebAssembly and run in
// a Web Worker (worker.js, web/wasm). Every endpoint is the same Go code as
// under `nqueens serve`, and the page's thread never computes. A request
// goes to the worker as a message; the answer comes back as a Response
// whose body streams in chunks as the server flushes them. Aborting a
// request's signal cancels it in the worker, as a closed connection would.
//
// Messages, page → worker: {type: 'init', module, loader, sha256, total}
//   once, then {type: 'request', id, method, url, headers: [[name, value]…],
//   body} and {type: 'abort', id}.
// Worker → page: {type: 'progress', loaded, total, cached} while the module
//   downloads, {type: 'ready'} or {type: 'failed', noWasm | unloaded: error
//   | stopped} (the page words them), then per
//   request {type: 'head', id, status, headers}, {type: 'chunk', id, data}
//   (a Uint8Array) and {type: 'end', id}, or {type: 'fail', id, error}.

import { answerCache } from './answercache.js';
import { startSolver } from './boot.js';
import { t } from './i18n.js';

// Statuses whose Response must have no body.
const bodiless = new Set([101, 204, 205, 304]);

// noWasm marks the failure of a browser without WebAssembly, which the
// page words itself (page.wasm.none).
const noWasm = {};

// said words a failure: noWasm, or a sentence.
const said = (why) => (why === noWasm ? t('page.wasm.none', { Command: 'nqueens serve' }) : why);

// failure words the worker's message {type: 'failed'}.
function failure(m) {
  if (m.noWasm) return noWasm;
  if (m.stopped) return t('page.wasm.stopped');
  return t('page.wasm.unloaded', { Error: m.unloaded });
}

// wasmTransport returns {fetch, down, onProgress} for the module and loader
// that site (site.json) names. The worker is the one boot.js started
// (solver), or starts at the first request, and again after a failure.
// onProgress(fn) has fn({loaded, total, cached}) called while the module
// downloads.
export function wasmTransport(site, solver) {
  const calls = new Map(); // id → {resolve, reject, controller}
  let worker = null;
  let booted = solver;
  let nextId = 1;
  let why = ''; // of the last failure
  const progress = new Set();

  function start() {
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
      why = noWasm;
      throw new TypeError(said(noWasm));
    }
    const s = booted || startSolver(site);
    booted = null;
    worker = s.worker;
    worker.onmessage = (e) => receive(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      stop(e.message ? t('page.wasm.failed', { Error: e.message }) : t('page.wasm.stopped'));
    };
    for (const m of s.early) receive(m);
  }

  // stop ends the worker and every request in it, as a server that went
  // away would: their fetches fail.
  function stop(reason) {
    why = reason;
    if (worker) worker.terminate();
    worker = null;
    for (const c of calls.values()) fail(c, new TypeError(said(reason)));
    calls.clear();
  }

  function fail(c, err) {
    c.reject(err);
    try {
      c.controller.error(err);
    } catch {
      // the body was read to its end already
    }
  }

  function receive(m) {
    if (m.type === 'failed') return stop(failure(m));
    if (m.type === 'progress') {
      for (const fn of progress) fn(m);
      return;
    }
    if (m.type === 'warning') {
      console.warn(m.error);
      return;
    }
    const c = calls.get(m.id);
    if (!c) return; // an answer to a request the page has given up
    switch (m.type) {
      case 'head':
        c.resolve(new Response(bodiless.has(m.status) ? null : c.body, { status: m.status, headers: m.headers }));
        break;
      case 'chunk':
        c.controller.enqueue(m.data);
        break;
      case 'end':
        calls.delete(m.id);
        c.controller.close();
        break;
      case 'fail':
        calls.delete(m.id);
        fail(c, new TypeError(m.error));
        break;
    }
  }

  function cancel(id, reason) {
    const c = calls.get(id);
    if (!c) return;
    calls.delete(id);
    if (worker) worker.postMessage({ type: 'abort', id });
    fail(c, reason);
  }

  // request is fetch(url, init) for the paths of the API.
  function request(url, init = {}) {
    const { signal } = init;
    if (signal && signal.aborted) return Promise.reject(signal.reason);
    if (!worker) {
      try {
        start();
      } catch (err) {
        return Promise.reject(err);
      }
    }
    const id = nextId++;
    const c = {};
    c.body = new ReadableStream({
      start(controller) { c.controller = controller; },
      cancel(reason) { cancel(id, reason); },
    });
    const answer = new Promise((resolve, reject) => Object.assign(c, { resolve, reject }));
    calls.set(id, c);
    if (signal) signal.addEventListener('abort', () => cancel(id, signal.reason), { once: true });
    worker.postMessage({
      type: 'request', id, url,
      method: init.method || 'GET',
      headers: [...new Headers(init.headers)],
      body: init.body === undefined ? null : init.body,
    });
    return answer;
  }

  // What depends on the build alone comes from the browser's cache when
  // it can (answercache.js): a second visit does not wait for the solver.
  const answers = answerCache(site.module_sha256);

  return {
    fetch: (url, init = {}) => answers.fetch(url, init, request),
    get down() { return why === noWasm ? said(noWasm) : t('page.wasm.down', { Why: why }); },
    onProgress: (fn) => progress.add(fn),
    get noWasm() { return why === noWasm; },
  };
}
