// A trace held in columns: the compact events of /api/trace?form=compact
// (docs/api.md) rebuilt into typed arrays, off the page's thread. The trace
// worker (traceworker.js) feeds a TraceBuilder and posts its chunks; the
// page keeps them in a TraceStore, whose event(pos) gives any step in the
// full JSON form of the trace (and, for bitmask, the masks of every call on
// the stack as "frames"), built only when that step is shown. The builder
// also grows the search tree (nodes and the changes to earlier nodes), which
// the store keeps for tree.js. This module imports nothing, so that Node
// can run it in the tests (TestCompactTraceDecodes).

export const kindNames = ['', 'place', 'reject', 'remove', 'solution', 'dead-end', 'done'];
const kindOf = { p: 1, x: 2, r: 3, s: 4, e: 5, d: 6 };
export const PLACE = 1;
export const REJECT = 2;
export const REMOVE = 3;
export const SOLUTION = 4;
const attackNames = ['', 'same column', 'same diagonal', 'same anti-diagonal', 'same row'];
const attackOf = { c: 1, d: 2, a: 3, r: 4 };
const counterNames = ['nodes', 'tries', 'reads', 'placed', 'rejected', 'backtracks', 'solutions'];
const counterOf = { N: 0, T: 1, R: 2, P: 3, X: 4, B: 5, S: 6 };
const flagArrays = ['cols', 'diag', 'anti'];

// What an event holds beyond its square (bits of the has column).
const HAS_SCAN = 1;
const HAS_COMPARED = 2;
const HAS_FLAGS = 4;
const HAS_MASKS = 8;
const HAS_SQUARES = 16;
const HAS_TEXT = 32;
const HAS_BY = 64;

// Tree node kinds, and the fields a change to an earlier node sets.
export const NODE_ROOT = 0;
export const NODE_PLACE = 1;
export const NODE_REJECT = 2;
export const NODE_SOLUTION = 3;
const SET_END = 0;
const SET_FOUND = 1;
const SET_LEFT = 2;
const SET_KIND = 3;

// newChunk makes the columns of up to cap events of an n×n board.
function newChunk(start, cap, n) {
  return {
    start, count: 0, n,
    kind: new Uint8Array(cap), row: new Uint8Array(cap), col: new Uint8Array(cap),
    byRow: new Uint8Array(cap), byCol: new Uint8Array(cap), attack: new Uint8Array(cap),
    line: new Uint16Array(cap), has: new Uint8Array(cap),
    counters: new Float64Array(7 * cap), queens: new Uint8Array(Math.max(n, 1) * cap),
    candidate: new Float64Array(cap),
    pattern: new Int32Array(cap), valOff: new Int32Array(cap),
    scan: new Uint8Array(3 * cap),
    listOff: new Int32Array(cap), listLen: new Uint16Array(cap), // compared, flags or squares
    masks: null, // BigUint64Array(4 * cap), made at the first masks
    framePrev: new Int32Array(cap),
    created: new Int32Array(cap), topAt: new Int32Array(cap),
    vals: [], list: [], // pools, as typed arrays once the chunk is posted
  };
}

// finishChunk trims the chunk to its events and turns its pools into typed
// arrays; transfer lists their buffers.
function finishChunk(c) {
  const k = c.count;
  const cut = (a, per = 1) => a.slice(0, k * per);
  const out = {
    start: c.start, count: k, n: c.n,
    kind: cut(c.kind), row: cut(c.row), col: cut(c.col), byRow: cut(c.byRow), byCol: cut(c.byCol),
    attack: cut(c.attack), line: cut(c.line), has: cut(c.has),
    counters: cut(c.counters, 7), queens: cut(c.queens, Math.max(c.n, 1)), candidate: cut(c.candidate),
    pattern: cut(c.pattern), valOff: cut(c.valOff), scan: cut(c.scan, 3),
    listOff: cut(c.listOff), listLen: cut(c.listLen),
    masks: c.masks ? cut(c.masks, 4) : null,
    framePrev: cut(c.framePrev), created: cut(c.created), topAt: cut(c.topAt),
    vals: Float64Array.from(c.vals), list: Int32Array.from(c.list),
  };
  const transfer = Object.values(out).filter((v) => ArrayBuffer.isView(v)).map((v) => v.buffer);
  return { chunk: out, transfer };
}

// TraceBuilder rebuilds compact events (the parsed JSON of each one) into
// chunks of columns, and the search tree.
export class TraceBuilder {
  constructor(n, chunkSize = 4096) {
    this.n = n;
    this.chunkSize = chunkSize;
    this.count = 0;
    this.queens = new Uint8Array(n);
    this.counters = new Float64Array(7);
    this.grew = Array.from({ length: 7 }, () => new Float64Array(7));
    this.candidate = 0;
    this.patterns = [];
    this.newPatterns = [];
    this.lastAtRow = new Int32Array(n + 1).fill(-1);
    this.solutions = [];
    this.chunk = newChunk(0, chunkSize, n);
    this.pending = []; // chunks filled since the last take
    this.tree = new TreeBuilder();
  }

  // add takes one compact event.
  add(o) {
    let c = this.chunk;
    if (c.count === this.chunkSize) {
      this.pending.push(finishChunk(c));
      c = this.chunk = newChunk(this.count, this.chunkSize, this.n);
    }
    const i = c.count;
    const n = this.n;
    const kind = kindOf[o.k];
    if (!kind) throw new Error(`unknown event kind ${JSON.stringify(o.k)}`);
    const row = o.r || 0;
    const col = o.c || 0;
    c.kind[i] = kind;
    c.row[i] = row;
    c.col[i] = col;
    c.line[i] = o.l || 0;
    let has = 0;
    if (o.b) {
      has |= HAS_BY;
      c.byRow[i] = o.b[0];
      c.byCol[i] = o.b[1];
      c.attack[i] = attackOf[o.a];
    }
    // The board: a place puts its queen, a remove takes it off, "q" says
    // where it is otherwise.
    if (kind === PLACE) this.queens[row - 1] = col;
    else if (kind === REMOVE) this.queens[row - 1] = 0;
    if (o.q) this.queens.set(o.q);
    c.queens.set(this.queens, i * n);
    // The counters grow as at the last event of the kind, but where "n" says.
    const g = this.grew[kind];
    if (o.n) for (const [k, d] of Object.entries(o.n)) g[counterOf[k]] = d;
    for (let k = 0; k < 7; k++) this.counters[k] += g[k];
    c.counters.set(this.counters, 7 * i);
    this.candidate = o.i !== undefined ? o.i : (this.candidate > 0 ? this.candidate + 1 : 0);
    c.candidate[i] = this.candidate;
    if (o.t !== undefined) {
      has |= HAS_TEXT;
      let p = o.t;
      if (Array.isArray(p)) {
        this.patterns.push(p);
        this.newPatterns.push(p);
        p = this.patterns.length - 1;
      }
      c.pattern[i] = p;
      c.valOff[i] = c.vals.length;
      if (o.v) c.vals.push(...o.v);
    }
    if (o.g) {
      has |= HAS_SCAN;
      c.scan.set(o.g, 3 * i);
    }
    // One list an event: the rows compared, the flags or the squares.
    const list = (items, bit) => {
      has |= bit;
      c.listOff[i] = c.list.length;
      c.listLen[i] = items.length;
      c.list.push(...items);
    };
    if (o.m !== undefined) list(typeof o.m === 'number' ? Array.from({ length: o.m }, (_, k) => k + 1) : o.m, HAS_COMPARED);
    if (o.f) list(o.f, HAS_FLAGS);
    if (o.s) list(o.s, HAS_SQUARES);
    c.framePrev[i] = -1;
    if (o.w) {
      has |= HAS_MASKS;
      if (!c.masks) c.masks = new BigUint64Array(4 * this.chunkSize);
      for (let k = 0; k < 4; k++) c.masks[4 * i + k] = BigInt(`0x${o.w[k]}`);
      // The callers' words are those of their own last steps.
      if (row > 0) {
        c.framePrev[i] = row > 1 ? this.lastAtRow[row - 1] : -1;
        this.lastAtRow[row] = this.count;
      }
    }
    c.has[i] = has;
    if (kind === SOLUTION) this.solutions.push(this.count);
    this.count++;
    this.tree.add(kind, col, this.count, this.candidate > 0);
    c.created[i] = this.tree.count;
    c.topAt[i] = this.tree.top();
    c.count++;
  }

  // take returns what was built since the last take: {chunks, patterns,
  // solutions, tree} and the buffers to transfer.
  take() {
    const parts = this.pending;
    this.pending = [];
    if (this.chunk.count > 0) {
      parts.push(finishChunk(this.chunk));
      this.chunk = newChunk(this.count, this.chunkSize, this.n);
    }
    const tree = this.tree.take();
    const out = {
      chunks: parts.map((p) => p.chunk), patterns: this.newPatterns, solutions: this.solutions, tree: tree.data,
    };
    this.newPatterns = [];
    this.solutions = [];
    return { batch: out, transfer: [...parts.flatMap((p) => p.transfer), ...tree.transfer] };
  }
}

// TreeBuilder grows the search tree from the events in order: a node per
// placement and per rejected try, numbered depth first, so a subtree is a
// range of numbers and the tree at a step is a prefix. It records the new
// nodes and the later changes to nodes (end, found, left, kind).
class TreeBuilder {
  constructor() {
    this.count = 1; // node 0 is the empty board
    this.path = [0];
    this.depth = [0];
    this.found = [Infinity];
    this.fresh = { parent: [], depth: [], col: [], kind: [], step: [] };
    this.changes = [];
  }

  top() { return this.path[this.path.length - 1]; }

  node(kind, col, step) {
    const id = this.count++;
    const top = this.top();
    const f = this.fresh;
    f.parent.push(top);
    f.depth.push(this.depth[top] + 1);
    f.col.push(col);
    f.kind.push(kind);
    f.step.push(step);
    this.depth[id] = this.depth[top] + 1;
    this.found[id] = Infinity;
    if (kind === NODE_REJECT) this.changes.push(id, SET_END, id + 1, id, SET_LEFT, step);
    return id;
  }

  add(kind, col, step, brute) {
    if (brute) return; // a candidate is a whole board: no tree
    if (kind === PLACE) this.path.push(this.node(NODE_PLACE, col, step));
    else if (kind === REJECT) this.node(NODE_REJECT, col, step);
    else if (kind === REMOVE && this.path.length > 1) {
      const v = this.path.pop();
      this.changes.push(v, SET_END, this.count, v, SET_LEFT, step);
    } else if (kind === SOLUTION) {
      for (const id of this.path) {
        if (this.found[id] > step) {
          this.found[id] = step;
          this.changes.push(id, SET_FOUND, step);
        }
      }
      this.changes.push(this.top(), SET_KIND, NODE_SOLUTION);
    }
  }

  take() {
    const f = this.fresh;
    const data = {
      parent: Int32Array.from(f.parent), depth: Uint8Array.from(f.depth), col: Uint8Array.from(f.col),
      kind: Uint8Array.from(f.kind), step: Float64Array.from(f.step), changes: Float64Array.from(this.changes),
    };
    this.fresh = { parent: [], depth: [], col: [], kind: [], step: [] };
    this.changes = [];
    return { data, transfer: Object.values(data).map((a) => a.buffer) };
  }
}

// grow returns a typed array like a with room for need elements, keeping
// its contents.
function grow(a, need, fill) {
  if (need <= a.length) return a;
  const b = new a.constructor(Math.max(need, 2 * a.length, 1024));
  if (fill !== undefined) b.fill(fill);
  b.set(a);
  return b;
}

// TreeData is the search tree as the page draws it: per node its parent,
// depth, column, kind, step, the node count when it was left (end), the
// step of the first solution below it (found) and the step that took it off
// (left), Infinity while unknown.
export class TreeData {
  constructor() {
    this.count = 1;
    this.parent = new Int32Array(1024).fill(-1);
    this.depth = new Uint8Array(1024);
    this.col = new Uint8Array(1024);
    this.kind = new Uint8Array(1024);
    this.step = new Float64Array(1024);
    this.end = new Float64Array(1024).fill(Infinity);
    this.found = new Float64Array(1024).fill(Infinity);
    this.left = new Float64Array(1024).fill(Infinity);
  }

  apply(t) {
    const at = this.count;
    const need = at + t.parent.length;
    for (const k of ['parent', 'depth', 'col', 'kind', 'step']) this[k] = grow(this[k], need);
    for (const k of ['end', 'found', 'left']) this[k] = grow(this[k], need, Infinity);
    this.parent.set(t.parent, at);
    this.depth.set(t.depth, at);
    this.col.set(t.col, at);
    this.kind.set(t.kind, at);
    this.step.set(t.step, at);
    this.count = need;
    const fields = [this.end, this.found, this.left, this.kind];
    for (let k = 0; k < t.changes.length; k += 3) fields[t.changes[k + 1]][t.changes[k]] = t.changes[k + 2];
  }
}

// TraceStore holds the chunks of a trace on the page.
export class TraceStore {
  constructor(n) {
    this.n = n;
    this.length = 0;
    this.chunks = [];
    this.patterns = [];
    this.solutions = [];
    this.tree = new TreeData();
  }

  // apply takes a batch of the builder.
  apply(b) {
    this.patterns.push(...b.patterns);
    for (const c of b.chunks) {
      this.chunks.push(c);
      this.length = c.start + c.count;
    }
    this.solutions.push(...b.solutions);
    this.tree.apply(b.tree);
  }

  // at finds the chunk of pos and pos's index in it.
  at(pos) {
    const cs = this.chunks;
    let lo = 0;
    let hi = cs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (cs[mid].start <= pos) lo = mid;
      else hi = mid - 1;
    }
    return [cs[lo], pos - cs[lo].start];
  }

  kind(pos) {
    if (pos < 0 || pos >= this.length) return 0;
    const [c, i] = this.at(pos);
    return c.kind[i];
  }

  // reads is the reads counter after the step at pos.
  reads(pos) { const [c, i] = this.at(pos); return c.counters[7 * i + 2]; }

  created(pos) { const [c, i] = this.at(pos); return c.created[i]; }
  topAt(pos) { const [c, i] = this.at(pos); return c.topAt[i]; }

  // queens returns the board after the step at pos (1-based columns).
  queens(pos) {
    const [c, i] = this.at(pos);
    return Array.from(c.queens.subarray(i * c.n, (i + 1) * c.n));
  }

  masksAt(pos) {
    const [c, i] = this.at(pos);
    const bits = (k) => {
      const w = c.masks[4 * i + k];
      let s = '';
      for (let b = 0; b < this.n; b++) s += (w >> BigInt(b)) & 1n ? '1' : '0';
      return s;
    };
    return { cols: bits(0), ld: bits(1), rd: bits(2), free: bits(3) };
  }

  // event is the step at pos in the full JSON form of the trace, plus
  // frames for bitmask; null outside the trace.
  event(pos) {
    if (pos < 0 || pos >= this.length) return null;
    const [c, i] = this.at(pos);
    const has = c.has[i];
    const e = { step: pos + 1, kind: kindNames[c.kind[i]] };
    if (c.row[i]) e.row = c.row[i];
    if (c.col[i]) e.col = c.col[i];
    if (has & HAS_BY) {
      e.by = { row: c.byRow[i], col: c.byCol[i] };
      e.attack = attackNames[c.attack[i]];
    }
    e.queens = Array.from(c.queens.subarray(i * c.n, (i + 1) * c.n));
    e.counters = {};
    counterNames.forEach((name, k) => { e.counters[name] = c.counters[7 * i + k]; });
    if (has & HAS_TEXT) e.text = this.text(c, i);
    if (c.line[i]) e.line = c.line[i];
    if (c.candidate[i]) e.candidate = c.candidate[i];
    const list = () => Array.from(c.list.subarray(c.listOff[i], c.listOff[i] + c.listLen[i]));
    if (has & HAS_SQUARES) {
      const s = list();
      e.squares = [];
      for (let k = 0; k < s.length; k += 2) e.squares.push({ row: s[k], col: s[k + 1] });
    }
    if (has & HAS_SCAN) e.scan = { column: c.scan[3 * i], diagonal: c.scan[3 * i + 1], anti_diagonal: c.scan[3 * i + 2] };
    if (has & HAS_COMPARED) e.compared = list();
    if (has & HAS_FLAGS) e.flags = list().map((f) => ({ array: flagArrays[(f >> 1) & 3], index: f >> 3, set: (f & 1) === 1 }));
    if (has & HAS_MASKS) {
      e.masks = this.masksAt(pos);
      if (e.row) {
        // The words of every call on the stack, the caller's from its own
        // last step, the current call's last.
        const frames = [e.masks];
        for (let p = c.framePrev[i]; p >= 0;) {
          frames.unshift(this.masksAt(p));
          const [pc, pi] = this.at(p);
          p = pc.framePrev[pi];
        }
        Object.defineProperty(e, 'frames', { value: frames, enumerable: false });
      }
    }
    return e;
  }

  // text rebuilds the sentence of event i of chunk c from its pattern:
  // literals and slots, each slot a number of the event or the next of
  // its values.
  text(c, i) {
    const p = this.patterns[c.pattern[i]];
    let v = c.valOff[i];
    let s = '';
    for (let k = 0; k < p.length; k++) {
      if (k % 2 === 0) {
        s += p[k];
        continue;
      }
      switch (p[k]) {
        case 'i': s += c.candidate[i]; break;
        case 'r': s += c.row[i]; break;
        case 'c': s += c.col[i]; break;
        case 'R': s += c.byRow[i]; break;
        case 'C': s += c.byCol[i]; break;
        case 'n': s += c.col[i] + 1; break;
        default: s += c.vals[v++];
      }
    }
    return s;
  }
}
