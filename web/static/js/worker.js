// The Web Worker of the page's static build (nqueens site): it runs the
// nqueens server compiled to WebAssembly (web/wasm) off the page's thread
// and hands it the page's requests; wasm.js describes the messages. A
// classic worker script, so that it can load Go's wasm_exec.js, which is
// not a module.
//
// The module is compiled while it downloads (WebAssembly.compileStreaming),
// whether the worker asked for it or the page did (boot.js, which hands over
// the body), the download's progress is posted to the page, and the module
// is kept in
// the browser's Cache Storage under its SHA-256 (site.json's module_sha256),
// checked before it is kept: a second visit reads it from there, with no
// download, and compiles it from a cached response, which Chromium can
// answer from its own cache of compiled code.
'use strict';

// The messages that come before the module is ready wait here.
let waiting = [];

// nqueensReady is called by the Go program once it serves.
self.nqueensReady = () => {
  const early = waiting;
  waiting = null;
  postMessage({ type: 'ready' });
  for (const m of early) handle(m);
};

function handle(m) {
  if (m.type === 'request') self.nqueens.request(m);
  else if (m.type === 'abort') self.nqueens.abort(m.id);
}

// The module's download when the page made it (boot.js): its answer.
let pageDownload = null;
let downloaded = null;

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'download') {
    downloaded(m);
  } else if (m.type === 'init') {
    if (m.downloading) pageDownload = new Promise((resolve) => { downloaded = resolve; });
    start(m).catch((err) => postMessage({ type: 'failed', unloaded: String(err.message || err) }));
  } else if (waiting) {
    waiting.push(m);
  } else {
    handle(m);
  }
};

const cacheName = 'nqueens-wasm';
const wasmHeaders = { 'Content-Type': 'application/wasm' };

// download is the module's answer: the page's download, or the worker's
// own where the page made none or could not hand it over.
async function download(module) {
  const m = pageDownload && await pageDownload;
  if (m && !m.again) return new Response(m.body, { status: m.status, statusText: m.statusText });
  return fetch(module);
}

async function start({ module, loader, sha256, total }) {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compileStreaming !== 'function') {
    postMessage({ type: 'failed', noWasm: true });
    return;
  }
  // The cache key names the module's content: a new build is a new key.
  const key = new URL(`${module}?sha256=${sha256}`).href; // as boot.js names it
  const cache = await openCache();
  // A page that downloads the module found none kept.
  const cached = cache && sha256 && !pageDownload ? await cache.match(key) : undefined;
  // The download starts before Go's loader is read.
  const answer = cached ? null : download(module);
  importScripts(loader);
  let compiled;
  if (cached) {
    postMessage({ type: 'progress', loaded: total, total, cached: true });
    compiled = WebAssembly.compileStreaming(cached);
  } else {
    const res = await answer;
    if (!res.ok) throw new Error(`${module} answered ${res.status} ${res.statusText}`);
    const [toCompile, toKeep] = (await moduleStream(res, total)).tee();
    compiled = WebAssembly.compileStreaming(new Response(toCompile, { headers: wasmHeaders }));
    keep(cache, key, sha256, toKeep);
  }
  const go = new Go();
  const instance = await WebAssembly.instantiate(await compiled, go.importObject);
  // The program serves until the worker ends; if it ever stops, say so.
  go.run(instance).then(() => postMessage({ type: 'failed', stopped: true }));
}

// openCache is the worker's Cache Storage, or null where there is none
// (a page that is not a secure context, or storage turned off).
async function openCache() {
  try {
    return self.caches ? await caches.open(cacheName) : null;
  } catch {
    return null;
  }
}

// moduleStream is the module of res as it arrives, uncompressed, posting
// the bytes received to the page. nqueens site stores the module
// gzip-compressed (a quarter of its size, whatever the host compresses); a
// host that sends it with Content-Encoding: gzip has had it decompressed by
// the browser already: its first bytes say which.
async function moduleStream(res, total) {
  let loaded = 0;
  let lastPost = 0;
  const counted = res.body.pipeThrough(new TransformStream({
    transform(chunk, out) {
      loaded += chunk.byteLength;
      const now = performance.now();
      if (now - lastPost > 50) {
        lastPost = now;
        postMessage({ type: 'progress', loaded: Math.min(loaded, total || loaded), total });
      }
      out.enqueue(chunk);
    },
    flush() {
      postMessage({ type: 'progress', loaded: total || loaded, total });
    },
  }));
  // The first chunk decides: gzip's magic number, or the module itself.
  const reader = counted.getReader();
  const first = await reader.read();
  const rest = new ReadableStream({
    start(c) {
      if (first.done) c.close();
      else c.enqueue(first.value);
    },
    async pull(c) {
      const next = await reader.read();
      if (next.done) c.close();
      else c.enqueue(next.value);
    },
  });
  const gz = !first.done && first.value[0] === 0x1f && first.value[1] === 0x8b;
  return gz ? rest.pipeThrough(new DecompressionStream('gzip')) : rest;
}

// keep stores the module in the cache once it has arrived whole and its
// SHA-256 is the one site.json names; a failure only costs the next visit
// a download.
async function keep(cache, key, sha256, stream) {
  try {
    const bytes = await new Response(stream).arrayBuffer();
    if (!cache || !sha256) return;
    const sum = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
    if (sum !== sha256) {
      postMessage({ type: 'warning', error: `the module downloaded has SHA-256 ${sum}, not ${sha256}: it is not kept` });
      return;
    }
    await cache.put(key, new Response(bytes, { headers: wasmHeaders }));
    // Older builds' modules go.
    for (const old of await cache.keys()) {
      if (old.url !== key) await cache.delete(old);
    }
  } catch {
    // The next visit downloads it again.
  }
}
