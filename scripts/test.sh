#!/usr/bin/env bash
# Runs every test of nqueens on a fresh machine: formatting, go vet, the
# repository's own rules (scripts/check), staticcheck, the whole suite
# under the race detector (web/'s browser tests without it), the purego
# build and deploy/ on real engines.
# Installs what the tests need first (Debian's Chromium as root,
# staticcheck from the Go module proxy).
#
# Every part runs even when an earlier one failed, and the end lists each
# part that failed: one red test must not hide another. Arguments go to
# both `go test` runs (for example -run or -count=1).
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
# part NAME CMD...: runs CMD, timed, and records NAME if it fails.
part() {
	local name=$1 start=$SECONDS
	shift
	printf '\ntest.sh: == %s ==\n' "$name" >&2
	if "$@"; then
		echo "test.sh: ok: $name ($((SECONDS - start)) s)" >&2
	else
		echo "test.sh: FAIL: $name ($((SECONDS - start)) s)" >&2
		failed+=("$name")
	fi
}

# Browser tests of the web page drive Debian's Chromium.
install_chromium() {
	if command -v chromium >/dev/null 2>&1; then
		return 0
	fi
	if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
		echo "test.sh: chromium is missing and cannot be installed here (needs root and apt-get); the browser tests will skip, or fail under CI" >&2
		return 0
	fi
	echo "test.sh: installing chromium for the browser tests" >&2
	apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
}

gofmt_check() {
	local unformatted
	unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
	if [ -n "$unformatted" ]; then
		echo "test.sh: not gofmt-formatted:" >&2
		echo "$unformatted" >&2
		return 1
	fi
}

# The page's WebAssembly entry point builds for js/wasm only, which ./...
# leaves out.
vet() { go vet ./... && GOOS=js GOARCH=wasm go vet ./web/wasm; }

# staticcheck, pinned so that a new release's checks cannot turn a green
# tree red, built once for this machine (downloaded through the Go module
# proxy on a fresh machine) and run over both targets.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
staticcheck() {
	GOBIN="$bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2 &&
		"$bin/staticcheck" ./... &&
		GOOS=js GOARCH=wasm "$bin/staticcheck" ./web/wasm
}

# The rules a reviewer would otherwise have to remember, each its own part
# (go run ./scripts/check -h lists them): files and functions within the
# developers' guide's limits, paths and test names in comments that exist,
# assembly that takes its numbers from go_asm.h, and generated files that
# match their generators (go generate ./... then no change).
code_check() { go build -o "$bin/check" ./scripts/check && "$bin/check" "$1"; }

# The purego build runs the Go loops where the assembly would (the
# fallback of every CPU without AVX2, and of other architectures): vetted
# whole, and its engines' tests run in -short (a few seconds).
purego() {
	go vet -tags purego ./... &&
		go test -short -tags purego "$@" ./internal/join/ ./internal/kernel/ ./count/
}

part "install chromium" install_chromium
part "gofmt" gofmt_check
part "go vet" vet
part "file and function limits" code_check limits
part "pointers in comments" code_check pointers
part "assembly constants from go_asm.h" code_check asm
part "go generate leaves no diff" code_check generate
part "staticcheck" staticcheck
part "go test -race" go test -race -timeout 20m "$@" ./...
# The browser tests of web/ skip under the race detector (it slows the
# server behind each page several times over) and run here without it.
part "browser tests" go test -timeout 20m "$@" ./web
part "purego build" purego "$@"
# deploy/ on real engines: its own Go tests, a one-node Slurm and GNU
# parallel (as root it installs them; unless CI is set it skips what this
# machine cannot run).
part "cluster tests" ./scripts/cluster-test.sh

if [ ${#failed[@]} -gt 0 ]; then
	printf '\ntest.sh: these parts failed:\n' >&2
	printf '  %s\n' "${failed[@]}" >&2
	exit 1
fi
echo "test.sh: every part passed" >&2
