// The search tree, in step with the timeline: each node is a partial board
// (a queen placed) or a rejected try, drawn by its outcome as of the step
// shown, each outcome with its own shape as well as its colour (a filled
// circle placed, ringed when it leads to a solution, a star for a solution,
// a hollow circle for a dead end, a cross for a rejected try). Nodes are
// numbered in the order the search creates them (depth first), so a subtree
// is a contiguous range of numbers and "the tree at step s" is a prefix.
// Small trees are drawn whole; larger ones show the path to the current
// node and the tries beside it, each other subtree folded into one square
// labelled with its size. The trace worker builds the nodes
// (tracestore.js); this module draws them.
//
// The drawing is an ARIA tree: every node is a treeitem named with its row,
// column, outcome and step, one of them in the tab order (a roving
// tabindex). ↑ and ↓ move through the nodes as listed (depth first), → to
// a node's first child, ← to its parent, Home and End to the first and last;
// Enter or Space goes to the node's step.

import * as i18n from './i18n.js';
import { NODE_REJECT, NODE_SOLUTION } from './tracestore.js';

const SVG = 'http://www.w3.org/2000/svg';
const LIMIT = 160; // drawn nodes at most, when the tree is drawn whole
const DX = 26;     // px between leaves: a 24 px target each
const DY = 30;     // px between depths
const HIT = 12;    // radius of a node's target

// The outcomes of a node, as its name says them.
const outcomes = {
  root: () => i18n.t('page.tree.root'),
  rejected: () => i18n.t('page.tree.rejected'),
  solution: () => i18n.t('page.tree.solution'),
  good: () => i18n.t('page.tree.good'),
  dead: () => i18n.t('page.tree.dead'),
  placed: () => i18n.t('page.tree.placed'),
};

// shape draws the mark of an outcome centred on (cx, cy); the legend draws
// the same marks.
export function shape(out, cx, cy, folded = false) {
  const el = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  if (folded) {
    // A folded subtree is a square, ringed, hollow or filled as a node is.
    const square = el('rect', { class: 'mark', x: cx - 6, y: cy - 6, width: 12, height: 12 });
    return out === 'good' ? [el('rect', { class: 'ring', x: cx - 9, y: cy - 9, width: 18, height: 18 }), square] : [square];
  }
  switch (out) {
    case 'rejected':
      return [el('path', { class: 'mark', d: `M${cx - 5} ${cy - 5}L${cx + 5} ${cy + 5}M${cx + 5} ${cy - 5}L${cx - 5} ${cy + 5}` })];
    case 'solution': {
      const pts = [];
      for (let k = 0; k < 10; k++) {
        const r = k % 2 ? 3.2 : 8;
        const a = -Math.PI / 2 + (k * Math.PI) / 5;
        pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
      }
      return [el('polygon', { class: 'mark', points: pts.join(' ') })];
    }
    case 'good':
      return [el('circle', { class: 'ring', cx, cy, r: 8 }), el('circle', { class: 'mark', cx, cy, r: 4.5 })];
    case 'dead':
      return [el('circle', { class: 'mark', cx, cy, r: 5 })];
    default:
      return [el('circle', { class: 'mark', cx, cy, r: out === 'root' ? 4 : 5.5 })];
  }
}

export class SearchTree {
  constructor(box, summary, legend, onJump) {
    this.box = box;
    this.summary = summary;
    this.onJump = onJump;
    this.trace = null;
    this.focusNode = -1; // the node in the tab order, when the reader moved there
    this.order = [];     // the nodes drawn, in the order the keys go through them
    box.addEventListener('click', (e) => {
      const g = e.target.closest('[data-step]');
      if (g) this.go(g);
    });
    box.addEventListener('keydown', (e) => this.keydown(e));
    this.legend = legend;
    if (legend) this.drawLegend(legend);
    // The box's width and scroll, kept as they change: reading them while
    // drawing would make the browser lay the page out at every step.
    this.view = { left: 0, width: 0 };
    new ResizeObserver(([e]) => { this.view.width = e.contentRect.width; }).observe(box);
    box.addEventListener('scroll', () => { this.view.left = box.scrollLeft; }, { passive: true });
  }

  // relang writes the legend in the language just chosen; the panel draws
  // the tree again.
  relang() {
    if (this.legend) this.drawLegend(this.legend);
  }

  // drawLegend names each mark of the tree beside the mark itself.
  drawLegend(legend) {
    const keys = [['placed', i18n.t('page.tree.key.placed')], ['good', i18n.t('page.tree.key.good')], ['solution', i18n.t('page.tree.key.solution')],
      ['dead', i18n.t('page.tree.key.dead')], ['rejected', i18n.t('page.tree.key.rejected')], ['folded', i18n.t('page.tree.key.folded')]];
    legend.replaceChildren(...keys.map(([out, text]) => {
      const span = document.createElement('span');
      span.className = 'key';
      const svg = document.createElementNS(SVG, 'svg');
      svg.setAttribute('width', 20);
      svg.setAttribute('height', 20);
      svg.setAttribute('viewBox', '0 0 20 20');
      svg.setAttribute('aria-hidden', 'true');
      const g = document.createElementNS(SVG, 'g');
      g.setAttribute('class', `node ${out === 'folded' ? 'placed' : out}`);
      g.append(...shape(out, 10, 10, out === 'folded'));
      svg.append(g);
      span.append(svg, ` ${text}`);
      return span;
    }));
  }

  // reset shows the tree of trace (a TraceStore) on the n×n board.
  reset(n, trace) {
    this.n = n;
    this.trace = trace;
    this.focusNode = -1;
  }

  go(g) {
    this.focusNode = Number(g.dataset.node);
    this.onJump(Number(g.dataset.step));
  }

  // draw shows the tree as of event index pos (-1: the empty board).
  draw(pos) {
    const trace = this.trace;
    const t = trace.tree;
    if (t.count === 1 && trace.length > 0 && trace.event(0).candidate !== undefined) {
      this.box.replaceChildren();
      this.summary.textContent = i18n.t('page.tree.brute');
      return;
    }
    const hadFocus = this.box.contains(document.activeElement);
    const visible = pos >= 0 ? trace.created(pos) : 1;
    const stepNow = pos >= 0 ? pos + 1 : 0;
    const top = pos >= 0 ? trace.topAt(pos) : 0;
    const onPath = new Set();
    for (let v = top; v >= 0; v = t.parent[v]) onPath.add(v);
    const size = (v) => Math.min(t.end[v], visible) - v;

    // children[v] lists the drawn children; folded[v] marks a folded subtree.
    const children = new Map();
    const folded = new Set();
    const whole = visible <= LIMIT;
    let placements = 0;
    for (let v = 1; v < visible; v++) {
      if (t.kind[v] !== NODE_REJECT) placements++;
      const p = t.parent[v];
      if (!whole && !onPath.has(p)) continue;
      if (!children.has(p)) children.set(p, []);
      children.get(p).push(v);
      if (!whole && !onPath.has(v) && size(v) > 1) folded.add(v);
    }
    let leaves = 0;
    const x = new Map();
    this.order = [];
    const place = (v) => {
      this.order.push(v);
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
    const h = maxDepth * DY + 30;
    svg.setAttribute('width', w);
    svg.setAttribute('height', h);
    svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('role', 'tree');
    svg.setAttribute('aria-label', i18n.tn('page.tree.label', this.order.length, { Step: stepNow }));
    const edges = document.createElementNS(SVG, 'g');
    edges.setAttribute('aria-hidden', 'true');
    const nodes = document.createElementNS(SVG, 'g');
    nodes.setAttribute('role', 'none');
    const y = (v) => t.depth[v] * DY + 14;
    const focusNode = x.has(this.focusNode) ? this.focusNode : top;
    this.gs = new Map();
    for (const v of this.order) {
      const px = x.get(v);
      if (v > 0) {
        const p = t.parent[v];
        const line = document.createElementNS(SVG, 'line');
        line.setAttribute('x1', x.get(p));
        line.setAttribute('y1', y(p));
        line.setAttribute('x2', px);
        line.setAttribute('y2', y(v));
        line.setAttribute('class', onPath.has(v) ? 'edge path' : 'edge');
        edges.append(line);
      }
      const siblings = v > 0 ? children.get(t.parent[v]) : [0];
      const g = this.node(v, px, y(v), stepNow, onPath.has(v), folded.has(v) ? size(v) : 0, v === top);
      g.setAttribute('aria-level', t.depth[v] + 1);
      g.setAttribute('aria-setsize', siblings.length);
      g.setAttribute('aria-posinset', siblings.indexOf(v) + 1);
      if (folded.has(v)) g.setAttribute('aria-expanded', 'false');
      else if (children.has(v)) g.setAttribute('aria-expanded', 'true');
      g.setAttribute('tabindex', v === focusNode ? '0' : '-1');
      this.gs.set(v, g);
      nodes.append(g);
    }
    svg.append(edges, nodes);
    this.box.replaceChildren(svg);
    if (hadFocus) this.gs.get(focusNode).focus({ preventScroll: true });
    const cx = x.get(hadFocus ? focusNode : top);
    const { left, width } = this.view;
    if (cx !== undefined && width > 0 && (cx < left || cx > left + width)) {
      this.box.scrollLeft = this.view.left = Math.max(0, cx - width / 2);
    }
    const rejects = visible - 1 - placements;
    // Two sentences, each a message: what the tree holds and how it is drawn, and how to use it.
    const args = { Placements: placements, Rejects: rejects, Drawn: this.order.length - 1 };
    const so = whole ? i18n.t('page.tree.whole', args) : i18n.t('page.tree.folded', args);
    this.summary.textContent = i18n.t('page.sentences', { A: so, B: i18n.t('page.tree.how') });
  }

  // outcome is what node v is at step now.
  outcome(v, now) {
    const t = this.trace.tree;
    if (v === 0) return 'root';
    if (t.kind[v] === NODE_REJECT) return 'rejected';
    if (t.kind[v] === NODE_SOLUTION && t.found[v] <= now) return 'solution';
    if (t.found[v] <= now) return 'good';
    if (t.left[v] <= now) return 'dead';
    return 'placed';
  }

  node(v, cx, cy, now, onPath, folded, current) {
    const t = this.trace.tree;
    const g = document.createElementNS(SVG, 'g');
    const out = this.outcome(v, now);
    g.setAttribute('class', `node ${out}${onPath ? ' path' : ''}${current ? ' current' : ''}`);
    g.setAttribute('role', 'treeitem');
    g.dataset.step = t.step[v];
    g.dataset.node = v;
    const what = v === 0 ? i18n.t('page.tree.node.root', { What: outcomes.root() })
      : i18n.t('page.tree.node', { Row: t.depth[v], Col: t.col[v], What: outcomes[out](), Step: t.step[v] });
    const parts = [what];
    if (folded) parts.push(i18n.tn('page.tree.node.folded', folded));
    if (current) parts.push(i18n.t('page.tree.node.current'));
    const label = parts.reduce((a, b) => i18n.t('page.tree.node.and', { A: a, B: b }));
    g.setAttribute('aria-label', label);
    if (current) g.setAttribute('aria-current', 'step');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = label;
    const hit = document.createElementNS(SVG, 'circle');
    hit.setAttribute('class', 'hit');
    hit.setAttribute('cx', cx);
    hit.setAttribute('cy', cy);
    hit.setAttribute('r', HIT);
    g.append(title, hit, ...shape(out, cx, cy, !!folded));
    if (folded) {
      const text = document.createElementNS(SVG, 'text');
      text.setAttribute('x', cx);
      text.setAttribute('y', cy + 20);
      text.setAttribute('aria-hidden', 'true');
      text.textContent = folded > 999 ? `${Math.round(folded / 1000)}k` : String(folded);
      g.append(text);
    }
    return g;
  }

  keydown(e) {
    const g = e.target.closest && e.target.closest('[role=treeitem]');
    if (!g || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = this.trace.tree;
    const v = Number(g.dataset.node);
    const i = this.order.indexOf(v);
    const firstChild = this.order[i + 1] !== undefined && t.parent[this.order[i + 1]] === v ? this.order[i + 1] : -1;
    const moves = {
      ArrowDown: this.order[i + 1], ArrowUp: this.order[i - 1],
      ArrowRight: firstChild >= 0 ? firstChild : undefined, ArrowLeft: v > 0 && this.gs.has(t.parent[v]) ? t.parent[v] : undefined,
      Home: this.order[0], End: this.order[this.order.length - 1],
    };
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      e.stopPropagation();
      this.go(g);
      return;
    }
    if (!(e.key in moves)) return;
    e.preventDefault();
    e.stopPropagation();
    const next = moves[e.key];
    if (next === undefined) return;
    g.setAttribute('tabindex', '-1');
    const ng = this.gs.get(next);
    ng.setAttribute('tabindex', '0');
    this.focusNode = next;
    ng.focus();
  }
}
