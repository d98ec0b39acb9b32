// The page's start: read the server's limits, build the panels, show the
// one the address names, and keep the address current (history.replaceState)
// so that a link shares exactly what is on screen:
//   /?n=8&algo=stack&step=133          "Watch a search" (panel watch, the
//                                       default) at step 133
//   /?panel=gallery&n=8                 any other panel and its inputs
//   /?panel=race&n=8&algos=backtrack-2d,bitmask   the race, /?panel=cost the cost chart
// The old addresses /#gallery etc. still open their panel, and panel=board,
// the watch panel's former name, opens it (the address is rewritten). In the
// static build (api.kind 'wasm') the page says where its solver runs, and
// that the first start downloads it.
//
// The address also names the language (lang=zh, lang=en), which the page
// opens in before the reader's saved choice and the browser's languages
// (lang.js); the switch in the header changes it without a reload: the
// HTML's text is rendered again, then each panel's relang() rewrites its
// own and asks the server again for the sentences it wrote.

import * as api from './api.js';
import { CompletePanel } from './complete.js';
import { CostPanel } from './cost.js';
import { CountPanel } from './count.js';
import { GalleryPanel } from './gallery.js';
import { HugePanel } from './huge.js';
import { LessonPanel } from './lesson.js';
import { RacePanel } from './race.js';
import { lang } from './i18n.js';
import { onSwitch, say, start as startLang } from './lang.js';
import { $, status } from './text.js';
import { WatchPanel } from './watch.js';

const kinds = {
  watch: WatchPanel, race: RacePanel, cost: CostPanel, gallery: GalleryPanel, count: CountPanel, huge: HugePanel, complete: CompletePanel, lesson: LessonPanel,
};
const panels = {};
let current = null;
let urlTimer = 0;
let urlAt = 0;

// The banner says when the server stops answering, within two seconds
// (api.js asks it every second), and goes when it answers again; what the
// panels have loaded stays usable meanwhile. In the static build the page
// asks its solver again every 2 seconds, which starts it anew.
let retrying = false;
function serverDown(down) {
  $('banner').hidden = !down;
  if (api.kind !== 'wasm' || !down || retrying) return;
  retrying = true;
  const probe = async () => {
    try {
      await api.getJSON('/api/limits');
      retrying = false;
    } catch {
      setTimeout(probe, 2000);
    }
  };
  setTimeout(probe, 2000);
}

// aliases are the panels' former names, still valid in shared links.
const aliases = { board: 'watch' };

function panelFromURL() {
  const params = new URLSearchParams(location.search);
  const asked = params.get('panel') || location.hash.slice(1);
  const name = aliases[asked] || asked;
  return [kinds[name] ? name : 'watch', params];
}

function writeURL() {
  if (!current) return;
  const q = new URLSearchParams();
  if (current !== 'watch') q.set('panel', current);
  for (const [k, v] of Object.entries(panels[current].urlState())) {
    if (v !== undefined && v !== null && v !== '') q.set(k, v);
  }
  q.set('lang', lang());
  const url = `${location.pathname}?${q}`;
  if (url !== location.pathname + location.search || location.hash) history.replaceState(null, '', url);
  urlAt = performance.now();
  // The switch's links open this very state in their language (in a new
  // tab too).
  for (const a of document.querySelectorAll('#langs a[data-lang]')) {
    q.set('lang', a.dataset.lang);
    a.href = `${location.pathname}?${q}`;
  }
}

// open shows the panel a query names (URLSearchParams), as following a
// link would, and returns that panel: a panel hands its work to another.
function open(query) {
  history.pushState(null, '', `?${query}`);
  route();
  return panels[current];
}

// updateURL is called by the panels whenever their state moves; browsers
// refuse too many history calls, so it writes at most a few times a second.
function updateURL() {
  clearTimeout(urlTimer);
  const wait = 250 - (performance.now() - urlAt);
  if (wait <= 0) writeURL();
  else urlTimer = setTimeout(writeURL, wait);
}

function route() {
  const [name, params] = panelFromURL();
  if (current && current !== name) panels[current].leave();
  current = name;
  for (const p of Object.keys(kinds)) $(p).hidden = p !== name;
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.panel === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  panels[name].enter(params);
  $(name).dataset.ready = 'true';
  const board = boards[name];
  $('skip').href = board ? `#${board}` : '#main';
  say($('skip'), board ? 'page.skip.board' : 'page.skip.panel');
  writeURL();
}

// The panels whose board the skip link goes to.
const boards = { watch: 'watch-board', complete: 'complete-board', lesson: 'lesson-board' };

// skip moves the focus to the board's square in the tab order (a board
// itself takes no focus), or to the panel.
function skip(e) {
  const board = boards[current];
  const target = board ? $(board).querySelector('[tabindex="0"]') : $('main');
  if (!target) return;
  e.preventDefault();
  target.focus();
  target.scrollIntoView({ block: 'nearest' });
}

// staticBuild tells, in the page built by nqueens site, that the solver runs
// in this browser, and shows it loading (a bar and the bytes received) until
// it answers; a browser without WebAssembly is told so, and what to do.
function staticBuild() {
  const mb = (bytes) => (bytes / 1e6).toFixed(1);
  const { module_bytes: raw, module_download_bytes: download } = api.site;
  say($('banner'), 'page.banner.solver');
  const code = (text) => Object.assign(document.createElement('code'), { textContent: text });
  say($('site-note'), 'page.site.static', { Raw: mb(raw), Download: mb(download), Command: code('nqueens'), Serve: code('nqueens serve') });
  $('loading').hidden = false;
  status($('loading-text'), 'page.loading.start', { MB: mb(download) });
  let said = -1;
  api.onProgress(({ loaded, total, cached }) => {
    const bar = $('loading-bar');
    bar.hidden = false;
    bar.max = total || 1;
    bar.value = Math.min(loaded, bar.max);
    if (cached) {
      status($('loading-text'), 'page.loading.kept');
      return;
    }
    // The words change in quarters, so that a screen reader is not told every 50 ms.
    const quarter = Math.floor(4 * loaded / (total || 1));
    if (quarter === said) return;
    said = quarter;
    if (loaded >= total) status($('loading-text'), 'page.loading.downloaded', { MB: mb(total) });
    else status($('loading-text'), 'page.loading.progress', { Loaded: mb(loaded), Total: mb(total) });
  });
}

// noWasm says that the page cannot run here, instead of starting its solver
// again and again.
function noWasm() {
  status($('loading-text'), 'page.wasm.none', { Command: 'nqueens serve' }, 'error');
  $('loading-bar').hidden = true;
  $('banner').hidden = true;
  document.body.dataset.ready = 'no-wasm';
}

// relang shows the page in the language just chosen: each panel rewrites
// what it wrote, and the address names the language. body's data-lang
// says when the panels are done (a trace asked for again comes after).
async function relang() {
  writeURL();
  await Promise.allSettled(Object.values(panels).map((p) => p.relang && p.relang()));
  document.body.dataset.lang = lang();
}

async function main() {
  api.onReachability((up) => serverDown(!up));
  // The server's limits are asked for while the catalog comes (the static
  // build's solver starts after staticBuild listens to its download).
  let first = api.kind === 'http' ? api.getJSON('/api/limits') : null;
  if (first) first.catch(() => {}); // read below
  // The catalog comes with the page's own files; without it the page has
  // no words, so it is asked for again as the server is.
  let worded = false;
  while (!worded) {
    try {
      await startLang();
      worded = true;
    } catch {
      $('banner').hidden = false;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  if (api.kind === 'wasm') staticBuild();
  let limits = null;
  while (!limits) {
    try {
      limits = await (first || api.getJSON('/api/limits'));
    } catch (err) {
      if (api.noWasm()) {
        noWasm();
        return;
      }
      // In the static build the banner says why the solver does not start.
      first = null;
      if (api.kind === 'wasm') say($('banner'), 'page.banner.retry', { Error: err.message });
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  $('loading').hidden = true;
  for (const [name, Kind] of Object.entries(kinds)) panels[name] = new Kind(limits, updateURL, open);
  await panels.watch.init();
  for (const a of document.querySelectorAll('nav a')) {
    a.addEventListener('click', (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      history.pushState(null, '', `?panel=${a.dataset.panel}`);
      route();
    });
  }
  $('skip').addEventListener('click', skip);
  onSwitch(relang);
  window.addEventListener('popstate', route);
  window.addEventListener('hashchange', route);
  route();
  document.body.dataset.lang = lang();
  document.body.dataset.ready = 'true';
  performance.mark('nqueens-ready'); // the page answers: its start, as tests measure it
}

main();
