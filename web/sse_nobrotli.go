//go:build js

package web

import "io"

// newBrotli is nil in the WebAssembly build: the page's worker answers
// without HTTP, and the module stays smaller without the compressor.
func newBrotli(io.Writer) compressor { return nil }
