// The Web Worker of the page's static build (nqueens site): it runs the
// nqueens server compiled to WebAssembly (web/wasm) off the page's thread
// and hands it the page's requests; wasm.js describes the messages. A
// classic worker script, so that it can load Go's wasm_exec.js, which is
// not a module.
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

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'init') {
    start(m).catch((err) => postMessage({ type: 'failed', error: `the solver did not load: ${err.message || err}` }));
  } else if (waiting) {
    waiting.push(m);
  } else {
    handle(m);
  }
};

async function start({ module, loader }) {
  importScripts(loader);
  const res = await fetch(module);
  if (!res.ok) throw new Error(`${module} answered ${res.status} ${res.statusText}`);
  const go = new Go();
  const { instance } = await WebAssembly.instantiate(await moduleBytes(res), go.importObject);
  // The program serves until the worker ends; if it ever stops, say so.
  go.run(instance).then(() => postMessage({ type: 'failed', error: 'the solver stopped' }));
}

// moduleBytes is the module of res, which nqueens site stores
// gzip-compressed (a quarter of its size, whatever the host compresses). A
// host that sends it with Content-Encoding: gzip has had it decompressed by
// the browser already: the bytes say which.
async function moduleBytes(res) {
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(plain).arrayBuffer();
}
