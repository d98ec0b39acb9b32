package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// versionOptions: version has no flags.
type versionOptions struct{ streams }

func newVersionCmd(p *i18n.Printer) *cobra.Command {
	return command(&cobra.Command{
		Use:   "version",
		Short: p.T("help.version.short", nil),
		Args:  exactArgs(0, "no arguments"),
	}, &versionOptions{})
}

func (o *versionOptions) validate([]string) error { return nil }

func (o *versionOptions) run(context.Context) error {
	_, err := fmt.Fprintln(o.stdout, versionString())
	return err
}

// versionString describes this build: module version, VCS revision and Go
// version, whatever the build info holds.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "nqueens (no build info)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := "nqueens " + v
	var rev, dirty string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " " + rev + dirty
	}
	return s + " " + bi.GoVersion
}
