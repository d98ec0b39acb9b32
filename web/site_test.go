package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/internal/testkit"
)

// The site of the tests is written once per test binary, over an older
// site, and shared: compressing the module takes seconds, and ten times as
// long under the race detector.
var builtSite testSite

type testSite struct {
	once   sync.Once
	dir    string
	module SiteModule
	info   SiteInfo
	err    error
}

// oldFiles are the files of the older site, which the new one replaces.
var oldFiles = []string{"js/old.js", "old/deep/file.txt"}

// writtenSite compiles web/wasm and writes the site, or skips the test in
// -short mode. TestMain removes it.
func writtenSite(t testing.TB) *testSite {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles the WebAssembly module (-short)")
	}
	b := &builtSite
	b.once.Do(func() {
		start := time.Now()
		if b.module, b.err = BuildWasm(context.Background(), ".."); b.err != nil {
			return
		}
		t.Logf("the WebAssembly module: %d bytes, compiled in %v", len(b.module.Wasm), time.Since(start).Round(time.Millisecond))
		if b.dir, b.err = os.MkdirTemp("", "nqueens-site-"); b.err != nil {
			return
		}
		old, _ := json.Marshal(SiteInfo{Transport: "wasm", Files: append(slices.Clone(oldFiles), siteInfo)})
		for name, data := range map[string][]byte{oldFiles[0]: nil, oldFiles[1]: nil, siteInfo: old} {
			p := filepath.Join(b.dir, filepath.FromSlash(name))
			b.err = errors.Join(b.err, os.MkdirAll(filepath.Dir(p), 0o755), os.WriteFile(p, data, 0o644))
		}
		if b.err == nil {
			b.info, b.err = commandSite(t, b.dir)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b
}

// commandSite writes the site into dir with `nqueens site` (WriteSite
// over BuildWasm), built without the race detector: compressing the module
// under it took 30 s of every run of this package's tests. Its module is
// the one BuildWasm gives here, byte for byte (TestWriteSite).
func commandSite(t testing.TB, dir string) (SiteInfo, error) {
	cmd := exec.Command(testkit.BuildBinary(t), "site", "--json", "--quiet", "--source", "..", dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return SiteInfo{}, fmt.Errorf("nqueens site: %v\n%s", err, stderr.Bytes())
	}
	var info SiteInfo
	return info, json.Unmarshal(out, &info)
}

// TestWriteSite reads back the site written over an older one: every file
// of the page as the server has it, site.json saying what else is there,
// the module that decompresses to what was compiled, Go's loader, and none
// of the older site's files.
func TestWriteSite(t *testing.T) {
	site := writtenSite(t)
	dir, info := site.dir, site.info
	static, _ := fs.Sub(staticFiles, "static")
	var want []string
	fs.WalkDir(static, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == siteInfo {
			return err
		}
		want = append(want, name)
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("the site lacks %s: %v", name, err)
		} else if page, _ := fs.ReadFile(static, name); !bytes.Equal(got, page) {
			t.Errorf("the site's %s differs from the page's", name)
		}
		return nil
	})
	// The catalogs (locales/LANG.json, locales/index.json) follow the
	// page's files, as WriteSite writes them.
	locales, err := localeFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Sorted(maps.Keys(locales)) {
		want = append(want, name)
		if got, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(got, locales[name]) {
			t.Errorf("the site's %s is not the catalog (%v)", name, err)
		}
	}
	want = append(want, info.Module, info.Loader, siteInfo)
	if !slices.Equal(info.Files, want) {
		t.Errorf("site.json lists %q, want %q", info.Files, want)
	}
	for _, gone := range []string{oldFiles[0], "old"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s of the older site is still there (%v)", gone, err)
		}
	}

	var onDisk SiteInfo
	b, err := os.ReadFile(filepath.Join(dir, siteInfo))
	if err != nil || json.Unmarshal(b, &onDisk) != nil || !slices.Equal(onDisk.Files, info.Files) || onDisk.Transport != "wasm" {
		t.Fatalf("site.json: %v: %s", err, b)
	}
	gz, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(info.Module)))
	if err != nil || len(gz) != info.ModuleDownloadBytes {
		t.Fatalf("the module: %v, %d bytes, site.json says %d", err, len(gz), info.ModuleDownloadBytes)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := io.ReadAll(zr)
	if m := site.module.Wasm; err != nil || !bytes.Equal(wasm, m) || len(wasm) != info.ModuleBytes || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Fatalf("the module decompresses to %d bytes (%v), not the %d compiled", len(wasm), err, len(m))
	}
	if sum := sha256.Sum256(wasm); hex.EncodeToString(sum[:]) != info.ModuleSHA256 || info.Module != "wasm/nqueens."+info.ModuleSHA256[:16]+".wasm.gz" {
		t.Errorf("site.json names the module %s, SHA-256 %s; its SHA-256 is %x", info.Module, info.ModuleSHA256, sum)
	}
	if loader, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(info.Loader))); err != nil || !bytes.Contains(loader, []byte("globalThis.Go = class")) {
		t.Fatalf("the loader: %v", err)
	}
	if !strings.HasPrefix(info.Go, "go1.") {
		t.Errorf("site.json names Go %q", info.Go)
	}
}

// TestWriteSiteRefuses a folder that holds anything but a site, or a
// site.json naming files outside its folder, and leaves it as it was.
func TestWriteSiteRefuses(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"a folder of other files": {"notes.txt": "mine"},
		"another site.json":       {siteInfo: `{"transport": "http"}`},
		"a file outside":          {siteInfo: `{"transport": "wasm", "files": ["../outside"]}`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			for f, text := range files {
				os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644)
			}
			if err := CheckSiteDir(dir); err == nil || !strings.Contains(err.Error(), dir) {
				t.Fatalf("CheckSiteDir(%s): %v", name, err)
			}
			// The module is not looked at before the folder is refused.
			if _, err := WriteSite(dir, SiteModule{}); err == nil || !strings.Contains(err.Error(), dir) {
				t.Fatalf("WriteSite into %s: %v", name, err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != len(files) {
				t.Fatalf("the refused folder now holds %d files", len(entries))
			}
		})
	}
	for _, dir := range []string{t.TempDir(), filepath.Join(t.TempDir(), "new")} {
		if err := CheckSiteDir(dir); err != nil {
			t.Errorf("CheckSiteDir(%s), empty or new: %v", dir, err)
		}
	}
}

// TestBrowserConfig checks the browser's limits: valid, no larger than the
// server's, and one counting goroutine.
func TestBrowserConfig(t *testing.T) {
	b, d := BrowserConfig(), DefaultConfig()
	if _, err := New(b); err != nil {
		t.Fatal(err)
	}
	if b.MaxCountN >= d.MaxCountN || b.MaxSolveN > d.MaxSolveN || b.MaxRenderN > d.MaxRenderN || b.CountWorkers != 1 {
		t.Fatalf("browser limits %+v against the server's %+v", b, d)
	}
}

// TestPageKnowsEngineLimit checks that /api/limits tells the page the
// largest N the counting engine takes, count.MaxN, which the Count panel
// names the command line for, and that the page keeps no copy of it.
func TestPageKnowsEngineLimit(t *testing.T) {
	var got limitsJSON
	decode(t, do(newServer(t, Config{}), "GET", "/api/limits", ""), &got)
	if got.EngineMaxN != count.MaxN {
		t.Fatalf("/api/limits engine_max_n = %d, count.MaxN %d", got.EngineMaxN, count.MaxN)
	}
	js, err := fs.ReadFile(staticFiles, "static/js/count.js")
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`= ` + strconv.Itoa(count.MaxN) + `;`).Match(js) {
		t.Fatal("count.js keeps its own copy of count.MaxN")
	}
}
