// The page's first script: it imports nothing, so that it runs as soon as it
// arrives, while the page's other modules are still on their way. It reads
// site.json and, in the static build (nqueens site), starts the solver at
// once: on a first visit it asks for the WebAssembly module right away and
// hands the download to the solver's worker (worker.js) as it arrives, so
// that the module comes beside the page's own files rather than after them;
// a visit after that finds the module in the browser's cache, which the
// worker reads. api.js takes what it started.

export const siteURL = new URL('../site.json', import.meta.url);

// The module's place in Cache Storage names its content: a new build is a
// new key.
export const cacheName = 'nqueens-wasm';
export const moduleKey = (site) => new URL(`${site.module}?sha256=${site.module_sha256}`, siteURL).href;

// startSolver starts the worker of the static build's solver for site; the
// messages it posts before wasm.js listens wait in early. download, if
// given, is the module's fetch, whose body the worker takes.
export function startSolver(site, download = null) {
  const worker = new Worker(new URL('./worker.js', import.meta.url));
  const early = [];
  worker.onmessage = (e) => early.push(e.data);
  worker.postMessage({
    type: 'init',
    module: new URL(site.module, siteURL).href,
    loader: new URL(site.loader, siteURL).href,
    sha256: site.module_sha256,
    total: site.module_download_bytes,
    downloading: !!download,
  });
  if (download) {
    download.then((res) => {
      const m = { type: 'download', status: res.status, statusText: res.statusText, body: res.body };
      try {
        worker.postMessage(m, [res.body]);
      } catch {
        // A browser that cannot hand a stream on: the worker asks itself.
        res.body.cancel();
        worker.postMessage({ type: 'download', again: true });
      }
    }, () => worker.postMessage({ type: 'download', again: true }));
  }
  return { worker, early };
}

// kept reports whether the browser's cache holds the module of site.
async function kept(site) {
  try {
    return !!(self.caches && await (await caches.open(cacheName)).match(moduleKey(site)));
  } catch {
    return false;
  }
}

// booted resolves with {site, solver}: site.json ({} if it cannot be read)
// and the solver started, or null.
export const booted = fetch(siteURL)
  .then((r) => (r.ok ? r.json() : {}))
  .catch(() => ({}))
  .then(async (site) => {
    if (site.transport !== 'wasm' || typeof WebAssembly !== 'object') return { site, solver: null };
    const download = await kept(site) ? null : fetch(new URL(site.module, siteURL), { priority: 'high' });
    return { site, solver: startSolver(site, download) };
  });
