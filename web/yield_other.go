//go:build !(js && wasm)

package web

import "context"

// yielding returns ctx: with threads of its own, the server needs no help
// to see a cancelled request (see yield_js.go for the browser).
func yielding(ctx context.Context) context.Context { return ctx }
