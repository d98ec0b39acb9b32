//go:build !(js && wasm)

package web

import "embed"

// staticFiles is the page: HTML, CSS and JavaScript modules, nothing loaded
// from elsewhere.
//
//go:embed static
var staticFiles embed.FS
