// A page that will be written in another language than the English of its
// HTML is not shown until it is (lang.js start removes the class), so that
// a reader of Chinese never sees the English first; at most 3 s, in case
// the catalog does not come. A classic script, small, that index.html runs
// before the body is painted. The guess follows lang.js's order (the
// address, the saved choice, the browser's first language), before the
// catalogs say which languages there are; a wrong guess only waits for the
// page's start.
'use strict';
try {
  const want = new URLSearchParams(location.search).get('lang') || localStorage.getItem('nqueens.lang') || (navigator.languages || [])[0] || 'en';
  if (!/^en\b/i.test(want)) {
    document.documentElement.classList.add('i18n-wait');
    setTimeout(() => document.documentElement.classList.remove('i18n-wait'), 3000);
  }
} catch {
  // no storage: the page shows its English until the catalog comes
}
