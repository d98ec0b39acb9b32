package main

import (
	"math"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/count"
	"github.com/nqueens/nqueens/i18n"
	"github.com/spf13/cobra"
)

// memoryFlag is --memory: the bytes a worker's join may take, written as
// a number with an optional unit (k, M, G, T, decimal, with or without B).
type memoryFlag struct{ bytes int64 }

func (m *memoryFlag) String() string {
	if m.bytes == 0 {
		return ""
	}
	return strconv.FormatInt(m.bytes, 10)
}

func (m *memoryFlag) Type() string { return "size" }

func (m *memoryFlag) Set(s string) error {
	b, err := parseBytes(s)
	if err != nil {
		return err
	}
	m.bytes = b
	return nil
}

// parseBytes reads a size such as 2G, 512MB, 1.5G or 1000000.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(s), "B"), "b")
	mult := 1.0
	if k := len(t); k > 0 {
		switch t[k-1] {
		case 'k', 'K':
			mult = 1e3
		case 'm', 'M':
			mult = 1e6
		case 'g', 'G':
			mult = 1e9
		case 't', 'T':
			mult = 1e12
		}
		if mult != 1 {
			t = t[:k-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || v*mult >= math.MaxInt64 {
		return 0, i18n.NewError("cli.memory.bad", i18n.Args{"Value": strconv.Quote(s)})
	}
	return int64(v * mult), nil
}

// addMemoryFlag adds --memory to cmd.
func addMemoryFlag(cmd *cobra.Command, p *i18n.Printer, m *memoryFlag) {
	cmd.Flags().Var(m, "memory", p.T("help.flag.memory", i18n.Args{"Default": strconv.Itoa(count.DefaultMemory>>30) + "G"}))
}

// apply sets the memory of this process's counts.
func (m *memoryFlag) apply() { count.SetMemory(m.bytes) }
