//go:build js && wasm

package web

import "embed"

// staticFiles is empty in the WebAssembly module: the page around it is
// served by the static host, and the module answers only the API.
var staticFiles embed.FS
