package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSite writes the static site as a user would, from this clone: the
// summary on stderr, site.json on stdout with --json, the page and the
// module in the folder; a second run replaces the first.
func TestSite(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the WebAssembly module (-short)")
	}
	dir := filepath.Join(t.TempDir(), "public")
	for run := 1; run <= 2; run++ {
		code, out, errOut := runCLI("site", dir, "--json")
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, code, errOut)
		}
		var info struct {
			Transport   string   `json:"transport"`
			Module      string   `json:"module"`
			ModuleBytes int      `json:"module_bytes"`
			Files       []string `json:"files"`
		}
		if err := json.Unmarshal([]byte(out), &info); err != nil || info.Transport != "wasm" || info.ModuleBytes < 1<<20 {
			t.Fatalf("run %d: stdout %q: %v", run, out, err)
		}
		for _, f := range info.Files {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f))); err != nil {
				t.Errorf("run %d: %v", run, err)
			}
		}
		if !regexp.MustCompile(`wrote \d+ files into `+regexp.QuoteMeta(dir)).MatchString(errOut) || !strings.Contains(errOut, "python3 -m http.server") {
			t.Errorf("run %d: stderr %q", run, errOut)
		}
	}
}

// TestSiteErrors: a missing folder argument and a wrong --source are usage
// errors (2); a folder that holds other files is refused (1) and left as
// it was.
func TestSiteErrors(t *testing.T) {
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"site"}, 2, "needs the folder to write (DIR)"},
		{[]string{"site", "a", "b"}, 2, "got 2 arguments"},
		{[]string{"site", t.TempDir(), "--source", t.TempDir()}, 2, "no go.mod of github.com/nqueens/nqueens there"},
		{[]string{"site", full}, 1, "is not empty and holds no site written by nqueens site"},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != tc.code || out != "" || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") > 2 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out, errOut, tc.code, tc.want)
		}
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("the refused folder holds %d files", len(entries))
	}
}

// TestSiteFolderIgnored: the folder of the README's nqueens site public is
// ignored by git, so that a later build is not marked +dirty by it.
func TestSiteFolderIgnored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	cmd := exec.Command("git", "check-ignore", "-q", "public/index.html")
	cmd.Dir = "../.."
	if err := cmd.Run(); err != nil {
		t.Errorf("git does not ignore public/ (%v): add it to .gitignore", err)
	}
}
