// The search tree, in step with the timeline: each node is a partial board
// (a queen placed) or a rejected try, coloured by outcome as of the step
// shown. Nodes are numbered in the order the search creates them (depth
// first), so a subtree is a contiguous range of numbers and "the tree at
// step s" is a prefix. Small trees are drawn whole; larger ones show the path
// to the current node and the tries beside it, each other subtree folded
// into one node labelled with its size.

import { group } from './text.js';

const SVG = 'http://www.w3.org/2000/svg';
const LIMIT = 160; // drawn nodes at most, when the tree is drawn whole
const DX = 20;     // px between leaves
const DY = 30;     // px between depths

export class SearchTree {
  constructor(box, summary, onJump) {
    this.box = box;
    this.summary = summary;
    this.onJump = onJump;
    this.reset(0);
    box.addEventListener('click', (e) => {
      const g = e.target.closest('[data-step]');
      if (g) this.onJump(Number(g.dataset.step));
    });
  }

  reset(n) {
    this.n = n;
    // Parallel arrays, one entry per node; node 0 is the empty board.
    this.parent = [-1];
    this.depth = [0];
    this.col = [0];
    this.kind = ['root'];
    this.step = [0];
    this.end = [Infinity];          // nodes created before the node was left
    this.found = [Infinity];        // step of the first solution below
    this.left = [Infinity];         // step at which the search took it off
    this.path = [0];
    this.created = [];              // nodes after event i
    this.topAt = [];                // the current node after event i
  }

  // add takes the events of the trace in order.
  add(e) {
    const top = this.path[this.path.length - 1];
    const node = (kind) => {
      const id = this.parent.length;
      this.parent.push(top);
      this.depth.push(this.depth[top] + 1);
      this.col.push(e.col);
      this.kind.push(kind);
      this.step.push(e.step);
      this.end.push(kind === 'reject' ? id + 1 : Infinity);
      this.found.push(Infinity);
      this.left.push(kind === 'reject' ? e.step : Infinity);
      return id;
    };
    if (e.candidate === undefined) {
      if (e.kind === 'place') this.path.push(node('place'));
      else if (e.kind === 'reject') node('reject');
      else if (e.kind === 'remove' && this.path.length > 1) {
        const v = this.path.pop();
        this.end[v] = this.parent.length;
        this.left[v] = e.step;
      }
      else if (e.kind === 'solution') {
        for (const id of this.path) this.found[id] = Math.min(this.found[id], e.step);
        this.kind[top] = 'solution';
      }
    }
    this.created.push(this.parent.length);
    this.topAt.push(this.path[this.path.length - 1]);
  }

  // draw shows the tree as of event index pos (-1: the empty board).
  draw(pos) {
    if (this.parent.length === 1 && this.created.length > 0) {
      this.box.replaceChildren();
      this.summary.textContent = 'A brute-force search tests whole boards: it has no tree of partial boards.';
      return;
    }
    const visible = pos >= 0 ? this.created[pos] : 1;
    const stepNow = pos >= 0 ? pos + 1 : 0;
    const top = pos >= 0 ? this.topAt[pos] : 0;
    const onPath = new Set();
    for (let v = top; v >= 0; v = this.parent[v]) onPath.add(v);
    const size = (v) => Math.min(this.end[v], visible) - v;

    // children[v] lists the drawn children; folded[v] marks a folded subtree.
    const children = new Map();
    const folded = new Set();
    const whole = visible <= LIMIT;
    let placements = 0;
    for (let v = 1; v < visible; v++) {
      if (this.kind[v] !== 'reject') placements++;
      const p = this.parent[v];
      if (!whole && !onPath.has(p)) continue;
      if (!children.has(p)) children.set(p, []);
      children.get(p).push(v);
      if (!whole && !onPath.has(v) && size(v) > 1) folded.add(v);
    }
    let drawn = 0;
    let leaves = 0;
    const x = new Map();
    const place = (v) => {
      drawn++;
      const kids = children.get(v) || [];
      if (!kids.length || folded.has(v)) {
        x.set(v, leaves++ * DX + DX / 2);
        return;
      }
      kids.forEach(place);
      x.set(v, (x.get(kids[0]) + x.get(kids[kids.length - 1])) / 2);
    };
    place(0);
    const maxDepth = Math.max(this.n, 1);
    const svg = document.createElementNS(SVG, 'svg');
    const w = Math.max(leaves * DX, 120);
    const h = maxDepth * DY + 24;
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `search tree at step ${stepNow}: ${drawn} nodes drawn`);
    const edges = document.createElementNS(SVG, 'g');
    const nodes = document.createElementNS(SVG, 'g');
    const y = (v) => this.depth[v] * DY + 12;
    for (const [v, px] of x) {
      if (v > 0) {
        const p = this.parent[v];
        const line = document.createElementNS(SVG, 'line');
        line.setAttribute('x1', x.get(p));
        line.setAttribute('y1', y(p));
        line.setAttribute('x2', px);
        line.setAttribute('y2', y(v));
        line.setAttribute('class', onPath.has(v) ? 'edge path' : 'edge');
        edges.append(line);
      }
      nodes.append(this.node(v, px, y(v), stepNow, onPath.has(v), folded.has(v) ? size(v) : 0, v === top));
    }
    svg.append(edges, nodes);
    this.box.replaceChildren(svg);
    const cx = x.get(top);
    if (cx !== undefined && (cx < this.box.scrollLeft || cx > this.box.scrollLeft + this.box.clientWidth)) {
      this.box.scrollLeft = Math.max(0, cx - this.box.clientWidth / 2);
    }
    const rejects = visible - 1 - placements;
    const so = `${group(placements)} node${placements === 1 ? '' : 's'} (placements) and ${group(rejects)} rejected tr${rejects === 1 ? 'y' : 'ies'} so far`;
    this.summary.textContent = whole
      ? `${so}, all drawn; the current call is ringed. Click a node to go to its step.`
      : `${so}; drawn: the path to the current call and the tries beside it (${drawn - 1}), each other subtree folded into one square labelled with its size. Click a node to go to its step.`;
  }

  // outcome is what node v is at step now.
  outcome(v, now) {
    if (this.kind[v] === 'reject') return 'rejected';
    if (this.kind[v] === 'solution' && this.found[v] <= now) return 'solution';
    if (this.found[v] <= now) return 'placed good';
    if (this.left[v] <= now) return 'dead';
    return 'placed';
  }

  node(v, cx, cy, now, onPath, folded, current) {
    const g = document.createElementNS(SVG, 'g');
    const out = v === 0 ? 'root' : this.outcome(v, now);
    g.setAttribute('class', `node ${out}${onPath ? ' path' : ''}${current ? ' current' : ''}`);
    g.dataset.step = this.step[v];
    const title = document.createElementNS(SVG, 'title');
    const what = v === 0 ? 'the empty board'
      : `row ${this.depth[v]}, column ${this.col[v]}: ${{ rejected: 'rejected try', solution: 'solution', 'placed good': 'placed, leads to a solution', dead: 'placed, dead end', placed: 'placed' }[out]}, step ${this.step[v]}`;
    title.textContent = folded ? `${what}; ${folded} nodes below, folded` : what;
    let shape;
    if (folded) {
      shape = document.createElementNS(SVG, 'rect');
      shape.setAttribute('x', cx - 6);
      shape.setAttribute('y', cy - 6);
      shape.setAttribute('width', 12);
      shape.setAttribute('height', 12);
      const t = document.createElementNS(SVG, 'text');
      t.setAttribute('x', cx);
      t.setAttribute('y', cy + 17);
      t.textContent = folded > 999 ? `${Math.round(folded / 1000)}k` : String(folded);
      g.append(title, shape, t);
      return g;
    }
    shape = document.createElementNS(SVG, 'circle');
    shape.setAttribute('cx', cx);
    shape.setAttribute('cy', cy);
    shape.setAttribute('r', current ? 6 : 5);
    g.append(title, shape);
    return g;
  }
}
