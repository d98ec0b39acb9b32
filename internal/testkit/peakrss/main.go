// Command peakrss runs a command and writes its peak resident size in
// kilobytes to a file, for tests that bound a process's memory.
//
// Usage: peakrss OUTFILE COMMAND [ARG…]; it passes the standard streams
// through and exits with the command's status.
//
// A test cannot read that size from its own child: Linux starts a child
// with the parent's address space (vfork) and keeps that space's peak as
// the child's at exec, so a child of a test binary of gigabytes reports
// gigabytes. This program is small, so its child's figure is the child's.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: peakrss OUTFILE COMMAND [ARG…]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "peakrss: no resource usage on this system")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], fmt.Appendf(nil, "%d\n", ru.Maxrss), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(2)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
