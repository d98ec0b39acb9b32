// The trace worker: it reads a compact trace stream (the body of
// /api/trace?form=compact, already decompressed by the browser), parses its
// events and builds the trace's columns and tree (tracestore.js), off the
// page's thread, and posts them to the page in batches, a few a second
// while the stream flows, so that the page draws at full speed however fast
// the events come.
//
// Page → worker: {type: 'open', n, body} with the body a ReadableStream
//   (transferred), or {type: 'open', n} then {type: 'bytes', data} and
//   {type: 'close'} where streams cannot be transferred.
// Worker → page: {type: 'batch', batch} (TraceBuilder.take), then
//   {type: 'end', end} for the stream's end event, {type: 'error', error}
//   for its error event ({type: 'error', unreadable} for text that is no
//   trace: the page words it),
//   for its error event, and {type: 'closed', cut} when the stream is over
//   (cut: it ended without an end or error event, or broke off).

import { splitEvents } from './sse.js';
import { TraceBuilder } from './tracestore.js';

const batchEvery = 40; // ms between batches while events flow

let builder = null;
let lastPost = 0;
let timer = 0;
let text = '';
let decoder = null;
let finished = false;

function post() {
  clearTimeout(timer);
  timer = 0;
  lastPost = performance.now();
  if (!builder) return;
  const { batch, transfer } = builder.take();
  if (batch.chunks.length) postMessage({ type: 'batch', batch }, transfer);
}

function schedule() {
  if (timer) return;
  const wait = Math.max(0, batchEvery - (performance.now() - lastPost));
  timer = setTimeout(post, wait);
}

// feed parses the events of the text received so far.
function feed(chunk) {
  text += chunk;
  text = splitEvents(text, (name, data) => {
    const value = JSON.parse(data);
    if (name === 'message') {
      builder.add(value);
    } else {
      post();
      finished = true;
      postMessage({ type: name === 'end' ? 'end' : 'error', [name === 'end' ? 'end' : 'error']: name === 'end' ? value : value.error });
    }
  });
  schedule();
}

function close(broken) {
  post();
  postMessage({ type: 'closed', cut: broken || !finished });
}

async function read(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      close(true);
      return;
    }
    if (chunk.done) break;
    try {
      feed(chunk.value);
    } catch (err) {
      postMessage({ type: 'error', unreadable: err.message });
      close(true);
      reader.cancel().catch(() => {});
      return;
    }
  }
  close(false);
}

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'open') {
    builder = new TraceBuilder(m.n);
    text = '';
    finished = false;
    lastPost = performance.now();
    if (m.body) read(m.body);
    else decoder = new TextDecoder();
  } else if (m.type === 'bytes' || m.type === 'close') {
    try {
      feed(m.type === 'bytes' ? decoder.decode(m.data, { stream: true }) : decoder.decode());
    } catch (err) {
      postMessage({ type: 'error', unreadable: err.message });
      finished = true;
    }
    if (m.type === 'close') close(!!m.broken);
  }
};
