package web

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWasmHost runs the tests of the WebAssembly host (web/wasm), which
// build only for js/wasm, under Node.js with Go's go_js_wasm_exec.
func TestWasmHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the WebAssembly host")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("needs Node.js to run WebAssembly tests")
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "./wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm",
		"PATH="+filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm")+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test ./wasm under js/wasm: %v\n%s", err, out)
	}
}
