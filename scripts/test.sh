#!/usr/bin/env bash
# Runs every test of nqueens on a fresh machine: formatting, go vet,
# staticcheck, and the whole suite under the race detector. Installs what the
# tests need first.
set -euo pipefail
cd "$(dirname "$0")/.."

# Browser tests of the web page drive Debian's Chromium.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	echo "test.sh: installing chromium for the browser tests" >&2
	apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "test.sh: not gofmt-formatted:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
# The page's WebAssembly entry point builds for js/wasm only, which ./...
# leaves out.
GOOS=js GOARCH=wasm go vet ./web/wasm
# staticcheck, pinned so that a new release's checks cannot turn a green
# tree red, built once for this machine and run over both targets.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN="$bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
"$bin/staticcheck" ./...
GOOS=js GOARCH=wasm "$bin/staticcheck" ./web/wasm
go test -race -timeout 20m "$@" ./...
# The purego build runs the Go loops where the assembly would (the
# fallback of every CPU without AVX2, and of other architectures): vetted
# whole, and its engines' tests run in -short (a few seconds).
go vet -tags purego ./...
go test -short -tags purego "$@" ./internal/join/ ./internal/kernel/ ./count/

# deploy/ on real engines: its own Go tests, a one-node Slurm and GNU
# parallel (as root it installs them; unless CI is set it skips what this
# machine cannot run).
./scripts/cluster-test.sh
