// Command solve-bench prints the performance table of random solutions and
// completion as markdown: run it through bench/solve.sh.
//
// Each random solve runs in a child process (this program run again with
// -child) so that its peak memory, read from the kernel's rusage, is its
// own. Completion times are for a fixed set of generated hard instances.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nqueens/nqueens/board"
	"github.com/nqueens/nqueens/complete"
	"github.com/nqueens/nqueens/solve"
)

func main() {
	child := flag.String("child", "", "internal: run one measurement (random or construct) and print seconds")
	n := flag.Int("n", 0, "internal: board size for -child")
	sizes := flag.String("sizes", "100000,1000000,10000000,100000000", "board sizes for random solutions")
	instances := flag.Int("instances", 15, "hard completion instances per n")
	flag.Parse()
	if *child != "" {
		runChild(*child, *n)
		return
	}
	fmt.Println("| N | random solve | verify | peak memory | bytes/queen | construction (filled) |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|")
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fail(err)
		}
		out, rss := spawn("random", n)
		fields := strings.Fields(out)
		cons, _ := spawn("construct", n)
		fmt.Printf("| %s | %s s | %s s | %s | %.1f | %s s |\n", pretty(n), fields[0], fields[1],
			mib(rss), float64(rss)/float64(n), strings.Fields(cons)[0])
	}
	fmt.Println()
	fmt.Println("| n | blocked diagonals | instances | solvable | median | worst |")
	fmt.Println("|---:|---:|---:|---:|---:|---:|")
	for _, n := range []int{18, 20, 21} {
		k := complete.HardDiagonals(n)
		var times []time.Duration
		solvable := 0
		for seed := range uint64(*instances) {
			p, err := complete.ExcludedDiagonals(n, k, seed)
			if err != nil {
				fail(err)
			}
			start := time.Now()
			_, err = complete.Complete(context.Background(), p, complete.Options{})
			times = append(times, time.Since(start))
			switch {
			case err == nil:
				solvable++
			case err != complete.ErrNoCompletion:
				fail(err)
			}
		}
		slices.Sort(times)
		fmt.Printf("| %d | %d | %d | %d | %s | %s |\n", n, k, len(times), solvable,
			round(times[len(times)/2]), round(times[len(times)-1]))
	}
}

// runChild makes one measurement in this process and prints its seconds.
func runChild(what string, n int) {
	switch what {
	case "random":
		start := time.Now()
		p, err := solve.Random(context.Background(), n, solve.RandomOptions{Seed: 1})
		if err != nil {
			fail(err)
		}
		took := time.Since(start)
		start = time.Now()
		if err := board.Verify(p); err != nil {
			fail(err)
		}
		fmt.Printf("%.3f %.3f\n", took.Seconds(), time.Since(start).Seconds())
	case "construct":
		start := time.Now()
		c, err := solve.Construct(n)
		if err != nil {
			fail(err)
		}
		p := board.Collect(c)
		fmt.Printf("%.3f %d\n", time.Since(start).Seconds(), p.N())
	default:
		fail(fmt.Errorf("unknown child %q", what))
	}
}

// spawn runs one child and returns its output and peak resident memory.
func spawn(what string, n int) (string, int64) {
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	cmd := exec.Command(self, "-child", what, "-n", strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		fail(fmt.Errorf("%s %d: %v", what, n, err))
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return string(out), ru.Maxrss * 1024 // Linux reports KiB
}

func pretty(n int) string {
	for e, p := 0, 1; p <= n; e, p = e+1, p*10 {
		if p == n {
			return fmt.Sprintf("10^%d", e)
		}
	}
	return strconv.Itoa(n)
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func round(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "solve-bench:", err)
	os.Exit(1)
}
