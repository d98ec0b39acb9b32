package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/web"
	"github.com/spf13/cobra"
)

// modulePath is the module whose source site compiles.
const modulePath = "github.com/nqueens/nqueens"

// siteOptions are the flags and arguments of site.
type siteOptions struct {
	streams
	source  string
	jsonOut bool
	dir     string
}

func newSiteCmd() *cobra.Command {
	o := &siteOptions{}
	cmd := &cobra.Command{
		Use:   "site DIR",
		Short: "Write the web page as a static site that runs in the browser",
		Long: `site writes into DIR the web page of serve as a static site: the same page,
with the nqueens server compiled to WebAssembly, which the page runs in a Web
Worker instead of asking a server. Any static file server serves DIR
(python3 -m http.server, GitHub Pages, a course's web space), and the page
sends nothing anywhere. Its limits are a browser's (counts up to N = 15).

The module is compiled from the nqueens source with the go command (which
must be on PATH): the source of the working directory's module, or --source,
or the source this binary was built from. The first build takes under a
minute on two cores, later ones a few seconds. DIR must be new, empty, or a
site written before, whose files are replaced.

Summary on stderr; --json prints it as JSON (site.json of DIR) on stdout.`,
		Example: `  nqueens site public
  cd public && python3 -m http.server 8000    # then open http://localhost:8000/`,
		Args: exactArgs(1, i18n.NewError("cli.args.site", nil)),
	}
	f := cmd.Flags()
	f.StringVar(&o.source, "source", "", "folder of the nqueens source to compile (default: the module around the working directory, or this binary's)")
	f.BoolVar(&o.jsonOut, "json", false, "print the summary (site.json) on stdout")
	addQuietFlag(cmd)
	return command(cmd, o)
}

func (o *siteOptions) validate(args []string) error {
	o.dir = args[0]
	if o.source != "" && !isSource(o.source) {
		return usageT("cli.site.nomod", i18n.Args{"Path": o.source, "File": "go.mod", "Module": modulePath})
	}
	return nil
}

func (o *siteOptions) run(ctx context.Context) error {
	src, err := siteSource(o.source)
	if err != nil {
		return err
	}
	// Before the build, which takes a while.
	if err := web.CheckSiteDir(o.dir); err != nil {
		return err
	}
	o.noteT("cli.site.compiling", i18n.Args{"Command": "go build"})
	m, err := web.BuildWasm(ctx, src)
	if err != nil {
		return err
	}
	info, err := web.WriteSite(o.dir, m)
	if err != nil {
		return err
	}
	mb := func(b int) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }
	o.noteT("cli.site.wrote", i18n.Args{"Files": len(info.Files), "Dir": o.dir, "Module": info.Module, "Size": mb(info.ModuleBytes),
		"Stored": mb(info.ModuleDownloadBytes), "Loader": info.Loader, "Go": info.Go})
	o.noteT("cli.site.serve", i18n.Args{"Command": fmt.Sprintf("cd %s && python3 -m http.server 8000", o.dir)})
	if o.jsonOut {
		return writeJSONLine(o.stdout, info)
	}
	return nil
}

// siteSource finds the folder of the nqueens source to compile: the one
// given, the module around the working directory, or the folder this binary
// was compiled from (go run, go build without -trimpath).
func siteSource(given string) (string, error) {
	if given != "" {
		return given, nil // validate checked it
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			if isSource(dir) {
				return dir, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	// This file is cmd/nqueens/site.go of the source.
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if dir := filepath.Dir(filepath.Dir(filepath.Dir(file))); isSource(dir) {
			return dir, nil
		}
	}
	return "", errT("cli.site.nosource", nil)
}

// isSource reports whether dir holds the go.mod of the nqueens module.
func isSource(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == modulePath
		}
	}
	return false
}
