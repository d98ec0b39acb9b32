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

func newSiteCmd(p *i18n.Printer) *cobra.Command {
	o := &siteOptions{}
	cmd := &cobra.Command{
		Use:   "site DIR",
		Short: p.T("help.site.short", nil),
		Long:  p.T("help.site.long", nil),
		Example: `  nqueens site public
  cd public && python3 -m http.server 8000    # ` + p.T("help.site.example.open", i18n.Args{"URL": "http://localhost:8000/"}),
		Args: exactArgs(1, i18n.NewError("cli.args.site", nil)),
	}
	f := cmd.Flags()
	f.StringVar(&o.source, "source", "", p.T("help.site.flag.source", nil))
	f.BoolVar(&o.jsonOut, "json", false, p.T("help.site.flag.json", nil))
	addQuietFlag(cmd, p)
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
