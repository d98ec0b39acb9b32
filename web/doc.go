// Package web serves the nqueens web page and its JSON API, the code behind
// `nqueens serve`.
//
// The page (static/, embedded with //go:embed, plain HTML, CSS and
// JavaScript, nothing loaded from elsewhere) plays a classic search step by
// step, shows every solution by symmetry class, runs the counting engine
// with live progress, solves and draws huge boards, and completes partial
// boards. It uses only the API, which docs/api.md describes endpoint by
// endpoint:
//
//	GET    /api/limits              the limits of this server
//	GET    /api/algorithms          the classic strategies
//	POST   /api/verify              is a board a solution, and if not why
//	GET    /api/solve               one solution (construction or random), any format
//	GET    /api/render              a board as SVG or PNG (downsampled when huge)
//	POST   /api/render              the same for a board in the body
//	GET    /api/solutions           every solution, grouped by symmetry class
//	GET    /api/trace               a classic search as server-sent events
//	POST   /api/complete            complete a partial board with blocked squares
//	POST   /api/count               start a count job
//	GET    /api/count/{id}          its state
//	GET    /api/count/{id}/events   its progress and result as server-sent events
//	DELETE /api/count/{id}          cancel it
//
// Every handler calls the library that does the work (board, classic,
// count, solve, complete); none of them computes anything itself.
//
// # The page without a server
//
// [WriteSite] writes the page as a static site (nqueens site) with the
// same [Server] compiled to WebAssembly by [BuildWasm] (package web/wasm):
// the page runs it in a Web Worker and sends it its requests instead of
// sending them over HTTP, under [BrowserConfig]'s limits. In the browser Go
// shares one thread with the worker's event loop and is never preempted:
// the searches' contexts give the browser a turn every 50 ms, so that a
// cancelled request is seen while its search runs (yield_js.go).
//
// # Safety
//
// [Config] bounds everything: N per endpoint, the request body, the size of
// a rendered answer, the time of a request, of a stream and of a slow
// client, and the number of heavy jobs at once (further ones get 429 at
// once rather than a queue). A body is read in full before a job slot is
// taken, so clients that stall their bodies hold no slot; an answer whose
// client stops reading is cut off. A request's work stops when its client
// disconnects; a count job stops when nobody has watched its events for
// Config.CountIdle, and only the latest finished jobs are kept. Requests
// must name the server in their Host header (its address, loopback names,
// Config.AllowedHosts), which keeps DNS-rebinding pages out. Bodies are
// application/json, which a cross-site form cannot send, and are read
// strictly: exact field names, no duplicates or nulls. Errors are JSON
// objects {"error": "..."} with a 4xx status saying what is wrong and
// where; docs/api.md lists every status.
package web
