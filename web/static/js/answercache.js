// The answers of the static build's solver that depend on nothing but the
// build and the request (its limits, the strategies, a trace, the
// solutions of n, the construction, the published counts), kept in the
// browser's Cache Storage, one cache per build (named by the module's
// SHA-256, so that a new build never reads an old one's answers). A second
// visit takes them from there at once, without waiting for the solver to
// start: the board of the watch panel is playable while the WebAssembly
// module is still being compiled. Answers that measure time (compare), that
// are jobs (count) or that a seed draws at random (solve) are never kept.
// Each answer taken from the cache leaves a performance mark,
// "nqueens-answer-kept", and each answer stored whole one,
// "nqueens-answer-stored", whose detail is its path (the tests read them).

const cacheable = /^\/api\/(limits|algorithms|trace|construction|solutions|reference)(\?|$)/;
const prefix = 'nqueens-answers-';

// answerCache returns {fetch(url, init, ask)} for the build whose module
// has SHA-256 sha: the kept answer of a GET it may keep, else ask(url,
// init), whose whole answer, if it is a 200, is kept for the next visit.
export function answerCache(sha) {
  const name = prefix + String(sha).slice(0, 16);
  let opened = null;
  const open = () => {
    if (!opened) {
      opened = (async () => {
        if (!self.caches) return null;
        // The answers of other builds are of no more use.
        for (const old of await caches.keys()) if (old.startsWith(prefix) && old !== name) caches.delete(old);
        return caches.open(name);
      })().catch(() => null); // storage may be off (private modes, file policies)
    }
    return opened;
  };

  // key names the answer of url in the language the request asks for (the
  // page sends it as ?lang=, or as Accept-Language).
  const key = (url, init) => {
    const u = new URL(url, location.origin);
    const lang = new Headers(init.headers).get('Accept-Language');
    if (!u.searchParams.has('lang') && lang) u.searchParams.set('lang', lang);
    return u.href;
  };

  return {
    async fetch(url, init, ask) {
      // A browser that runs no WebAssembly is told so (wasm.js), kept
      // answers or not: the page cannot run here.
      if ((init.method || 'GET') !== 'GET' || !cacheable.test(url) || typeof WebAssembly !== 'object') return ask(url, init);
      const cache = await open();
      const k = key(url, init);
      // The key names the language (the answers' Vary): match the key alone.
      const kept = cache && await cache.match(k, { ignoreVary: true }).catch(() => null);
      if (kept) {
        performance.mark('nqueens-answer-kept', { detail: new URL(k).pathname });
        return kept;
      }
      const res = await ask(url, init);
      // Kept once its body has come whole: a cut stream is not kept.
      if (cache && res.status === 200) {
        cache.put(k, res.clone()).then(() => performance.mark('nqueens-answer-stored', { detail: new URL(k).pathname }), () => {});
      }
      return res;
    },
  };
}
