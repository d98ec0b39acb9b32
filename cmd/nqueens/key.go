package main

import (
	"context"
	"fmt"
	"io"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/seal"
	"github.com/spf13/cobra"
)

// sealKey is the --key-file flag and the key it names, read when a command
// first needs it: a count that never writes a checkpoint needs no key.
type sealKey struct {
	path string
	key  *seal.Key
	cmd  *cobra.Command // whose context ends the read (Ctrl-C)
}

func addKeyFlag(cmd *cobra.Command, p *i18n.Printer, k *sealKey) {
	k.cmd = cmd
	cmd.Flags().StringVar(&k.path, "key-file", "", p.T("help.flag.key-file", nil))
}

// get returns the key, reading it on the first call; a key made now is
// announced on stderr (unless quiet), since results sealed under it can
// be read only where it is.
func (k *sealKey) get(stderr io.Writer, quiet bool) (*seal.Key, error) {
	if k.key != nil {
		return k.key, nil
	}
	ctx := context.Background()
	if k.cmd != nil && k.cmd.Context() != nil {
		ctx = k.cmd.Context()
	}
	if k.path != "" {
		key, err := seal.ReadFile(ctx, k.path)
		if isInterrupt(ctx, err) {
			return nil, interruptedT("cli.int.readingkey", i18n.Args{"Path": k.path})
		} else if err != nil {
			return nil, i18n.Wrap(err, "cli.where", i18n.Args{"Name": "--key-file"})
		}
		k.key = key
		return key, nil
	}
	key, created, err := seal.Default(ctx)
	if err != nil {
		return nil, err
	}
	if created && !quiet {
		fmt.Fprintf(stderr, "nqueens: %s\n", say(ctx).T("cli.key.made", i18n.Args{"Path": key.Path()}))
	}
	k.key = key
	return key, nil
}
