// loadTrace streams a classic search from /api/trace in the compact form
// and has it read off the page's thread: the response's body goes to a
// trace worker (traceworker.js), which parses the events and builds the
// trace's columns and tree; the page only stores the batches it posts
// (TraceStore.apply), a few a second. The page's thread never parses an
// event, so it keeps drawing at full speed while a long trace streams in.

import * as api from './api.js';
import { t } from './i18n.js';

// A trace worker started with the page, so that its first board does not
// wait for one to start (and fetch its modules) once its trace is in.
let spare = newWorker();

function newWorker() { return new Worker(new URL('./traceworker.js', import.meta.url), { type: 'module' }); }

// traceWorker is the spare worker, or a new one.
function traceWorker() {
  const w = spare || newWorker();
  spare = null;
  return w;
}

// loadTrace fills store with the trace of params ({n, algo, limit}) and
// calls onBatch() after each batch. It resolves with {end, error, cut}:
// the stream's end event (null if none came), the message of its error
// event, and whether it ended without either (a connection that broke).
// Aborting signal stops the stream and the worker.
export async function loadTrace(params, store, onBatch, { signal }) {
  const res = await api.open('/api/trace', { ...params, form: 'compact' }, { signal });
  const worker = traceWorker();
  return new Promise((resolve, reject) => {
    const result = { end: null, error: '', cut: false };
    const done = (extra) => {
      worker.terminate();
      resolve({ ...result, ...extra });
    };
    signal.addEventListener('abort', () => {
      worker.terminate();
      reject(signal.reason);
    }, { once: true });
    worker.onmessage = (e) => {
      const m = e.data;
      if (signal.aborted) return;
      if (m.type === 'batch') {
        store.apply(m.batch);
        onBatch();
      } else if (m.type === 'end') {
        result.end = m.end;
      } else if (m.type === 'error') {
        result.error = m.unreadable === undefined ? m.error : t('page.trace.unreadable', { Error: m.unreadable });
      } else if (m.type === 'closed') {
        if (m.cut && !result.error) api.checkNow();
        done({ cut: m.cut });
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      done({ error: e.message ? t('page.trace.stopped', { Error: e.message }) : t('page.trace.failed'), cut: true });
    };
    try {
      worker.postMessage({ type: 'open', n: store.n, body: res.body }, [res.body]);
    } catch {
      // A browser that cannot hand a stream to a worker: the page reads
      // the bytes, which costs it little, and posts them on.
      worker.postMessage({ type: 'open', n: store.n });
      pump(res.body, worker, signal);
    }
  });
}

async function pump(body, worker, signal) {
  const reader = body.getReader();
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      if (!signal.aborted) worker.postMessage({ type: 'close', broken: true });
      return;
    }
    if (chunk.done) break;
    worker.postMessage({ type: 'bytes', data: chunk.value }, [chunk.value.buffer]);
  }
  worker.postMessage({ type: 'close' });
}
