//go:build !(js && wasm)

// Not compiled into the WebAssembly module itself, which it builds.

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
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// The static build of the page (nqueens site): the page's own embedded
// files, the server compiled to WebAssembly (package web/wasm), Go's loader
// for it, and a site.json that tells the page to send its requests to that
// module, in a Web Worker, rather than over HTTP. Any static file server
// serves it.

// Where the module and its loader go in the site, relative to site.json.
// Their names carry the start of their SHA-256, so that a host may let
// browsers keep every file of wasm/ for good (README, "Hosting the site").
const siteInfo = "site.json"

// siteModule is the name of the module whose SHA-256 is sum (hex).
func siteModule(sum string) string { return "wasm/nqueens." + sum[:16] + ".wasm.gz" }

// siteLoader is the name of wasm_exec.js, whose content is loader.
func siteLoader(loader []byte) string {
	sum := sha256.Sum256(loader)
	return "wasm/wasm_exec." + hex.EncodeToString(sum[:8]) + ".js"
}

// wasmBuildFlags make the module small: no file paths (-trimpath), no
// symbol table or DWARF (-s -w: 177 KB less), no HTTP/2 in net/http (12 KB),
// and no VCS stamp, so that a clean clone, a CI checkout or a copy build
// alike. README.md gives the sizes.
var wasmBuildFlags = []string{"-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-tags=nethttpomithttp2"}

// SiteModule is what BuildWasm compiles.
type SiteModule struct {
	Wasm   []byte // package web/wasm for GOOS=js GOARCH=wasm
	Loader []byte // wasm_exec.js of the Go that compiled it
	Go     string // that Go's version, such as go1.26.8
}

// SiteInfo is the site.json of a static build, which the page reads at
// start (web/static/js/api.js).
type SiteInfo struct {
	Transport           string `json:"transport"` // "wasm"
	Module              string `json:"module"`    // the module, gzip-compressed
	Loader              string `json:"loader"`    // Go's wasm_exec.js
	ModuleBytes         int    `json:"module_bytes"`
	ModuleDownloadBytes int    `json:"module_download_bytes"` // compressed
	// ModuleSHA256 is the SHA-256 of the module (uncompressed), in hex: the
	// page checks what it downloads against it before it keeps it in the
	// browser's cache, under this name.
	ModuleSHA256 string   `json:"module_sha256"`
	Go           string   `json:"go"`
	Files        []string `json:"files"` // every file written, so that the next build can replace them
}

// BuildWasm compiles package web/wasm of the nqueens source at src (the
// folder of its go.mod) to WebAssembly with the go command on PATH, as small
// as Go makes it (wasmBuildFlags), and reads wasm_exec.js from the same Go
// installation. Cost: a go build, under a minute on two cores with an
// empty build cache, a few seconds with a warm one.
func BuildWasm(ctx context.Context, src string) (SiteModule, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return SiteModule{}, errors.New("the go command is needed to compile the WebAssembly module, and is not on PATH (install Go from https://go.dev/dl/)")
	}
	run := func(env []string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), src, err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
	env, err := run(nil, "env", "GOROOT", "GOVERSION")
	if err != nil {
		return SiteModule{}, err
	}
	goroot, version, _ := strings.Cut(strings.TrimSpace(string(env)), "\n")
	loader, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if errors.Is(err, fs.ErrNotExist) {
		loader, err = os.ReadFile(filepath.Join(goroot, "misc", "wasm", "wasm_exec.js")) // before Go 1.24
	}
	if err != nil {
		return SiteModule{}, fmt.Errorf("reading Go's wasm_exec.js: %w", err)
	}
	out, err := os.CreateTemp("", "nqueens-*.wasm")
	if err != nil {
		return SiteModule{}, err
	}
	out.Close()
	defer os.Remove(out.Name())
	args := append(append([]string{"build"}, wasmBuildFlags...), "-o", out.Name(), "./web/wasm")
	if _, err := run([]string{"GOOS=js", "GOARCH=wasm"}, args...); err != nil {
		return SiteModule{}, err
	}
	wasm, err := os.ReadFile(out.Name())
	if err != nil {
		return SiteModule{}, err
	}
	return SiteModule{Wasm: wasm, Loader: loader, Go: strings.TrimSpace(version)}, nil
}

// WriteSite writes the static site into dir, which must be new, empty, or
// a site written before (whose files it replaces): the page's files as
// `nqueens serve` serves them, m's module gzip-compressed and its loader,
// and site.json, written last. Cost: compressing the module, about a
// second.
func WriteSite(dir string, m SiteModule) (SiteInfo, error) {
	if err := clearSite(dir); err != nil {
		return SiteInfo{}, err
	}
	sum := sha256.Sum256(m.Wasm)
	hash := hex.EncodeToString(sum[:])
	info := SiteInfo{Transport: "wasm", Module: siteModule(hash), Loader: siteLoader(m.Loader), ModuleBytes: len(m.Wasm),
		ModuleSHA256: hash, Go: m.Go}
	write := func(name string, data []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		info.Files = append(info.Files, name)
		return os.WriteFile(p, data, 0o644)
	}
	static, _ := fs.Sub(staticFiles, "static")
	err := fs.WalkDir(static, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == siteInfo {
			return err
		}
		data, err := fs.ReadFile(static, name)
		if err != nil {
			return err
		}
		return write(name, data)
	})
	if err != nil {
		return SiteInfo{}, err
	}
	locales, err := localeFiles()
	if err != nil {
		return SiteInfo{}, err
	}
	for _, name := range slices.Sorted(maps.Keys(locales)) {
		if err := write(name, locales[name]); err != nil {
			return SiteInfo{}, err
		}
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if _, err := zw.Write(m.Wasm); err != nil {
		return SiteInfo{}, err
	}
	if err := zw.Close(); err != nil {
		return SiteInfo{}, err
	}
	info.ModuleDownloadBytes = gz.Len()
	if err := errors.Join(write(info.Module, gz.Bytes()), write(info.Loader, m.Loader)); err != nil {
		return SiteInfo{}, err
	}
	info.Files = append(info.Files, siteInfo)
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return SiteInfo{}, err
	}
	return info, os.WriteFile(filepath.Join(dir, siteInfo), append(b, '\n'), 0o644)
}

// CheckSiteDir reports whether [WriteSite] may write into dir: a folder
// that does not exist yet, an empty one, or one that holds a site written
// before. It changes nothing.
func CheckSiteDir(dir string) error {
	_, err := oldSite(dir)
	return err
}

// oldSite returns the site.json of the site in dir, or nil for a new or
// empty folder, or an error for a folder that holds anything else.
func oldSite(dir string) (*SiteInfo, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	var old SiteInfo
	b, err := os.ReadFile(filepath.Join(dir, siteInfo))
	if err != nil || json.Unmarshal(b, &old) != nil || old.Transport != "wasm" {
		return nil, fmt.Errorf("%s is not empty and holds no site written by nqueens site: give a new or empty folder", dir)
	}
	for _, name := range old.Files {
		if !fs.ValidPath(name) {
			return nil, fmt.Errorf("%s: its %s lists %q, which is not a file of the site", dir, siteInfo, name)
		}
	}
	return &old, nil
}

// clearSite makes dir ready for a site: it creates it, or checks that it is
// empty, or removes the files of the site written there before.
func clearSite(dir string) error {
	old, err := oldSite(dir)
	if err != nil {
		return err
	}
	if old == nil {
		return os.MkdirAll(dir, 0o755)
	}
	for _, name := range old.Files {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		// Folders the old site made and left empty go too.
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if os.Remove(filepath.Join(dir, filepath.FromSlash(d))) != nil {
				break
			}
		}
	}
	return nil
}
