// The page's text in the reader's language: the HTML's own text, written in
// index.html as keys of the message catalogs, and the language switch.
//
//   <h2 data-i18n="page.watch.title">Watch a search</h2>        the element's text
//   <nav data-i18n-aria-label="page.nav.label">                 one of its attributes
//   <p data-i18n="page.columns">Columns, row by row: <code data-slot="List"></code></p>
//                                    a child placed where the message says {{.List}}
//   <button data-i18n-title="page.watch.end.title" data-i18n-args='{"Key": "End"}'>
//                                    the values of its messages' other placeholders
//
// translate(root) renders every such element under root, at start and on
// every switch; fill(el, key, args) writes a message whose arguments may be
// elements (a <code> inside a sentence) into el. The English in index.html
// is what shows before the script runs; the browser test compares it with
// the catalog's (a round trip through Chinese restores every string).

import { chooseLang, htmlLang, lang, langs, load, save, t, tn } from './i18n.js';

// The attributes a data-i18n-ATTR names.
const attributes = ['aria-label', 'title', 'placeholder', 'alt'];

// translate renders the data-i18n elements and attributes under root:
// those of index.html and those the page wrote with say.
export function translate(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    const args = argsOf(el);
    for (const child of el.querySelectorAll(':scope > [data-slot]')) args[child.dataset.slot] = child;
    fill(el, el.dataset.i18n, args);
  }
  for (const attr of attributes) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`), argsOf(el)));
  }
}

// argsOf reads an element's data-i18n-args: the values of its messages'
// placeholders, as JSON (a BigInt as {"big": "digits"}).
function argsOf(el) {
  if (!el.dataset.i18nArgs) return {};
  return JSON.parse(el.dataset.i18nArgs, (k, v) => (v && typeof v.big === 'string' ? BigInt(v.big) : v));
}

// Private-use characters mark where an element goes in a rendered message:
// no catalog holds them.
const open = '\uE000';
const close = '\uE001';

// say writes message key with args into el, as fill does, and keeps the
// key and args on el (data-i18n, data-i18n-args), so that a language switch
// writes it again. An element among args becomes el's child data-slot.
export function say(el, key, args = {}) {
  const plain = {};
  for (const [name, v] of Object.entries(args)) {
    if (v instanceof Element) v.dataset.slot = name;
    else plain[name] = v;
  }
  el.dataset.i18n = key;
  if (Object.keys(plain).length) el.dataset.i18nArgs = JSON.stringify(plain, (k, v) => (typeof v === 'bigint' ? { big: String(v) } : v));
  else delete el.dataset.i18nArgs;
  fill(el, key, args);
}

// fill writes message key into el. args are the message's placeholders:
// a DOM node stands in the text where its placeholder is, anything else is
// rendered as t renders it; with a Count, the message's plural form for it.
export function fill(el, key, args = {}) {
  const nodes = [];
  const plain = {};
  for (const [name, v] of Object.entries(args)) {
    if (v instanceof Node) {
      plain[name] = `${open}${nodes.length}${close}`;
      nodes.push(v);
    } else {
      plain[name] = v;
    }
  }
  const text = 'Count' in args ? tn(key, args.Count, plain) : t(key, plain);
  if (!nodes.length) {
    el.textContent = text;
    return;
  }
  const parts = text.split(new RegExp(`${open}(\\d+)${close}`));
  el.replaceChildren(...parts.map((p, i) => (i % 2 ? nodes[Number(p)] : document.createTextNode(p))).filter((n) => n.nodeType !== Node.TEXT_NODE || n.data));
}

// start loads the language the page opens in: ?lang= in the address, the
// saved choice, the browser's languages, English.
export async function start() {
  const guess = chooseLang(); // among the languages the page knows of before the index comes
  await load(guess);
  // A language the catalogs have gained (locales/index.json) that the
  // address or the reader asks for is loaded then: adding a language
  // takes no change to the page.
  const tag = chooseLang(langs().map((l) => l.tag));
  if (tag !== guess) await load(tag);
  translate();
  drawSwitch();
  document.documentElement.classList.remove('i18n-wait'); // js/langwait.js
}

// drawSwitch lists the languages of the catalogs in the switch, each in
// its own words (locales/index.json: a language added to the catalogs
// comes with no change here), the one shown marked.
function drawSwitch() {
  const box = document.getElementById('langs');
  box.replaceChildren(...langs().map((l) => {
    const a = box.querySelector(`a[data-lang="${l.tag}"]`) || document.createElement('a');
    Object.assign(a, { lang: htmlLang(l.tag), hreflang: htmlLang(l.tag), textContent: l.name });
    a.dataset.lang = l.tag;
    if (!a.getAttribute('href')) a.href = `?lang=${l.tag}`;
    if (l.tag === lang()) a.setAttribute('aria-current', 'true');
    else a.removeAttribute('aria-current');
    return a;
  }));
}

// onSwitch(fn) has the switch's links change the language without a
// reload: the reader's choice is saved, every data-i18n text rendered
// again, and fn() called for the rest (the panels' own text, the address).
export function onSwitch(fn) {
  document.getElementById('langs').addEventListener('click', async (e) => {
    const a = e.target.closest('a[data-lang]');
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    await switchTo(a.dataset.lang, fn);
  });
}

// switchTo shows the page in tag.
export async function switchTo(tag, then = () => {}) {
  save(tag);
  if (tag !== lang()) {
    await load(tag);
    translate();
    drawSwitch();
  }
  then();
}
