// The page's sentences, in the reader's language. Every sentence comes from
// the message catalogs of package i18n (i18n/locales/LANG/*.json), which the
// server answers, and the static build holds, as locales/LANG.json: the same
// messages the command line and the API render in Go. A message is text and
// named placeholders {{.Name}}, nothing else (i18n/doc.go has the grammar);
// render() below is the JavaScript twin of Go's renderer, and the browser
// test TestI18nRendersAsGo renders every message in both and compares them.
//
//   await load(chooseLang());        // once, before the page writes text
//   t('lang.switch')                 // a message
//   t('list.two', { A: 'rows', B: 'columns' })   // with its placeholders
//   tn('common.solutions', 92)       // the plural form for 92, {{.Count}} = "92"
//   list(['1', '2', '3'])            // "1, 2 and 3" / "1、2和3"

const STORE = 'nqueens.lang';

let current = 'en';
let messages = {};
let rules = new Intl.PluralRules('en');
let languages = [{ tag: 'en', name: 'English' }];

// lang is the language the page is written in now.
export const lang = () => current;

// langs are the languages of the catalogs, with their names in their own
// words, as locales/index.json lists them (after load).
export const langs = () => languages;

// chooseLang is the language to show: ?lang= in the address, then the
// reader's saved choice, then the browser's languages, then English. Only
// a language of the catalogs is taken; supported names the tags it knows
// ('en', 'zh'; the list arrives with load).
export function chooseLang(supported = ['en', 'zh'], search = location.search, saved = readSaved(), prefs = navigator.languages || []) {
  const base = (tag) => String(tag || '').toLowerCase().replace('_', '-').split('-')[0];
  for (const want of [new URLSearchParams(search).get('lang'), saved, ...prefs]) {
    const b = base(want);
    if (supported.includes(b)) return b;
  }
  return 'en';
}

function readSaved() {
  try {
    return localStorage.getItem(STORE);
  } catch {
    return null; // storage may be off (private modes, file policies)
  }
}

// save keeps the reader's choice for the next visit.
export function save(tag) {
  try {
    localStorage.setItem(STORE, tag);
  } catch {
    // nothing kept: the address still carries ?lang=
  }
}

// load fetches the catalog of tag and makes it the page's language;
// <html lang> follows. It fetches relative to the page, so that the static
// build, served from any folder, finds its own copy.
export async function load(tag) {
  const [index, catalog] = await Promise.all([fetchJSON('locales/index.json'), fetchJSON(`locales/${tag}.json`)]);
  languages = index;
  messages = catalog;
  current = tag;
  rules = new Intl.PluralRules(tag);
  document.documentElement.lang = htmlLang(tag);
}

// htmlLang is the value of a lang attribute for the catalog tag: Chinese
// is written in simplified characters, zh-CN.
export const htmlLang = (tag) => (tag === 'zh' ? 'zh-CN' : tag);

async function fetchJSON(path) {
  const res = await fetch(new URL(path, document.baseURI));
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

// use sets the catalog directly (for the trace worker and tests).
export function use(tag, catalog) {
  messages = catalog;
  current = tag;
  rules = new Intl.PluralRules(tag);
}

const placeholder = /\{\{\.([A-Za-z][A-Za-z0-9]*)\}\}/g;

// parsed holds each message cut at its placeholders, [text, name, text,
// name, …, text], once: the page renders some messages for every square
// of the board at every step.
const parsed = new Map();

// render writes msg with args as Go's renderer does: integers grouped,
// other values as text; a placeholder without a value is left as it is.
function render(msg, args) {
  let parts = parsed.get(msg);
  if (!parts) {
    parts = msg.split(placeholder);
    parsed.set(msg, parts);
  }
  let s = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i];
    s += (Object.hasOwn(args, name) ? format(args[name]) : `{{.${name}}}`) + parts[i + 1];
  }
  return s;
}

function format(v) {
  if (typeof v === 'number' && Number.isInteger(v) && v > -1000 && v < 1000) return String(v); // nothing to group
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return int(v);
  return String(v);
}

// t is the message key with args; a key missing from the catalog shows as
// [key], as in Go.
export function t(key, args = {}) {
  const m = messages[key];
  if (typeof m === 'string') return render(m, args);
  if (m && typeof m.other === 'string') return render(m.other, args);
  return `[${key}]`;
}

// tn is the message key in the plural form count takes in the page's
// language, {{.Count}} being count itself, grouped. count is a number, a
// BigInt or a decimal string (big counts arrive so).
export function tn(key, count, args = {}) {
  const m = messages[key];
  const all = { Count: int(count), ...args };
  if (typeof m === 'string') return render(m, all);
  if (!m) return `[${key}]`;
  const form = rules.select(Number(count));
  return render(typeof m[form] === 'string' ? m[form] : m.other, all);
}

// int writes a whole number with its digits grouped by three, with the
// catalog's separator. It takes numbers, BigInts and decimal strings,
// which must not go through Number.
export function int(v) {
  const s = String(v);
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  if (!/^\d+$/.test(digits) || digits.length <= 3) return s;
  const sep = typeof messages['number.group'] === 'string' ? messages['number.group'] : ',';
  let first = digits.length % 3 || 3;
  let out = digits.slice(0, first);
  for (; first < digits.length; first += 3) out += sep + digits.slice(first, first + 3);
  return (neg ? '-' : '') + out;
}

// list joins items by the language's list pattern (CLDR's two, start,
// middle and end patterns of the catalog), as Go's Printer.List does.
export function list(items) {
  const n = items.length;
  if (n === 0) return '';
  if (n === 1) return String(items[0]);
  if (n === 2) return t('list.two', { A: items[0], B: items[1] });
  let s = t('list.end', { A: items[n - 2], B: items[n - 1] });
  for (let i = n - 3; i >= 1; i--) s = t('list.middle', { A: items[i], B: s });
  return t('list.start', { A: items[0], B: s });
}
