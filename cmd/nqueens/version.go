package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of nqueens from the build info",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), versionString())
			return nil
		},
	}
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
