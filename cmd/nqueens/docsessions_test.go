package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/nqueens/nqueens/internal/syncbuf"
	"github.com/nqueens/nqueens/internal/testkit"
	"github.com/nqueens/nqueens/seal"
)

// The sessions of docs/cluster.md: a coordinator and its workers, each in
// a terminal of its own. TestDocs cannot run them one command after
// another, so their blocks say "doctest: skip session NAME, terminal K:
// …", and TestDocsSessions runs the terminals of each session together,
// as the text around them tells (who starts when, who is killed or let go
// when), with the nqueens command built with the fault hooks of
// internal/faults (the text says where a session uses them). It checks
// each command's output against its block the way TestDocs does:
// progress lines, and the lines a session names, may be there or not.
// With -update it writes the outputs into the document.

// sessionDirective is the skip reason of a block of a session.
var sessionDirective = regexp.MustCompile(`^session (\S+), terminal (\d+):`)

// sessionRun is one session being run: its commands by terminal, in the
// document's order, and what they printed.
type sessionRun struct {
	t     *testing.T
	dir   string
	env   []string
	terms map[int][]example
	ports map[string]string // the document's address → a free one
	procs []*sessionProc
}

// sessionProc is one command of a session, running or done.
type sessionProc struct {
	e    example
	cmd  *exec.Cmd
	out  syncbuf.Buffer
	done chan struct{}
	err  error
}

// start runs the k-th command of terminal term.
func (r *sessionRun) start(term, k int) *sessionProc {
	r.t.Helper()
	if k >= len(r.terms[term]) {
		r.t.Fatalf("the session has no command %d in terminal %d", k+1, term)
	}
	e := r.terms[term][k]
	line := e.cmd
	for doc, free := range r.ports {
		line = strings.ReplaceAll(line, doc, free)
	}
	// Leading NAME=value words are the command's environment.
	var env []string
	for {
		word, rest, _ := strings.Cut(line, " ")
		if !regexp.MustCompile(`^[A-Z_]+=\S*$`).MatchString(word) {
			break
		}
		env, line = append(env, word), rest
	}
	p := &sessionProc{e: e, done: make(chan struct{})}
	p.cmd = exec.Command("sh", "-c", "exec "+line)
	p.cmd.Dir, p.cmd.Env = r.dir, append(slices.Clone(r.env), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	r.procs = append(r.procs, p)
	return p
}

// waitFor waits until p has printed a line that matches re.
func (r *sessionRun) waitFor(p *sessionProc, re string) {
	r.t.Helper()
	rx := regexp.MustCompile(re)
	testkit.WaitFor(r.t, fmt.Sprintf("%q to print %q", p.e.cmd, re), func() bool { return rx.MatchString(p.out.String()) })
}

// signal sends sig to p.
func (r *sessionRun) signal(p *sessionProc, sig os.Signal) {
	r.t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		r.t.Fatal(err)
	}
}

// exit waits for p to end, and checks its exit status.
func (r *sessionRun) exit(p *sessionProc, code int) {
	r.t.Helper()
	testkit.Receive(r.t, fmt.Sprintf("%q to end", p.e.cmd), p.done)
	if got := p.cmd.ProcessState.ExitCode(); got != code {
		r.t.Errorf("%q: exit %d, want %d; output:\n%s", p.e.cmd, got, code, p.out.String())
	}
}

// docSessions are the sessions of docs/cluster.md: what happens when, as
// its text tells. ignore are the lines of a session that a run may print
// or not, beyond the progress lines.
var docSessions = map[string]struct {
	ignore, volatile []string
	run              func(r *sessionRun)
}{
	// Two workers start once the coordinator has published the blocks.
	// Whether they see the server go away before they leave depends on
	// when it goes.
	// A copy too many may be published on a loaded machine (a vote that
	// lands between the coordinator's reads of bucket and stream; see
	// queuedNow in cluster/queue): sessions may show it or not.
	"one-machine": {[]string{`lost the connection|cannot reach the NATS server|published missing block messages again`}, []string{`\d+ units counted`}, func(r *sessionRun) {
		c := r.start(1, 0)
		r.waitFor(c, "published the block messages")
		w1, w2 := r.start(2, 0), r.start(3, 0)
		r.exit(c, 0)
		r.exit(w1, 0)
		r.exit(w2, 0)
	}},
	// w1 holds unit 0 and is killed with SIGKILL; w2 counts the rest, and
	// block 0 when the ack wait has run out.
	"worker-dies": {[]string{`lost the connection|cannot reach the NATS server|published missing block messages again`}, nil, func(r *sessionRun) {
		c := r.start(1, 0)
		r.waitFor(c, "published the block messages")
		w1 := r.start(2, 0)
		r.waitFor(w1, "holding unit 0")
		r.signal(w1, syscall.SIGKILL)
		r.exit(w1, -1)
		w2 := r.start(3, 0)
		r.exit(c, 0)
		r.exit(w2, 0)
	}},
	// w1 holds unit 2048 until SIGUSR1; the coordinator is interrupted
	// there, started again, and w1 let go.
	"coordinator-dies": {[]string{`lost the connection|cannot reach the NATS server|reconnected|published missing block messages again`}, []string{`counted=\d+`}, func(r *sessionRun) {
		c := r.start(1, 0)
		r.waitFor(c, "published the block messages")
		w1 := r.start(2, 0)
		r.waitFor(c, `N = 18: 2048/`)
		r.signal(c, os.Interrupt)
		r.exit(c, 130)
		again := r.start(1, 1)
		r.waitFor(again, "resuming a run")
		r.signal(w1, syscall.SIGUSR1)
		r.exit(again, 0)
		r.exit(w1, 0)
	}},
	// The liar and two honest workers, each with its NKey, start together
	// once the blocks are published.
	// The liar's key is shut out of the server 15 s after its ban, or at
	// the end of the run, whichever comes first.
	"liar": {[]string{`lost the connection|cannot reach the NATS server|a result differs from the accepted one|workers disagree|published missing block messages again|the banned key can no longer connect|authorization violation`},
		[]string{`units=\S+`, `units \d+-\d+`, `blocks=\d+`, `\d+ units counted`, `\d+ declined`, `voter=\S+`}, func(r *sessionRun) {
			c := r.start(1, 0)
			r.waitFor(c, "published the block messages")
			liar, h1, h2 := r.start(2, 0), r.start(3, 0), r.start(4, 0)
			r.exit(c, 0)
			r.exit(liar, 1)
			r.exit(h1, 0)
			r.exit(h2, 0)
		}},
}

// TestDocsSessions runs the sessions of docs/cluster.md.
func TestDocsSessions(t *testing.T) {
	bin := testkit.BuildBinary(t, "nqueens_faults") // skips under -short
	root := filepath.Join("..", "..")
	doc := filepath.Join(root, "docs", "cluster.md")
	byName := map[string]map[int][]example{}
	for _, e := range parseDoc(t, doc) {
		m := sessionDirective.FindStringSubmatch(e.skip)
		if m == nil {
			continue
		}
		var term int
		fmt.Sscan(m[2], &term)
		if byName[m[1]] == nil {
			byName[m[1]] = map[int][]example{}
		}
		byName[m[1]][term] = append(byName[m[1]][term], e)
	}
	var mu sync.Mutex
	outputs, examples := map[string]string{}, map[string]example{}
	for name, terms := range byName {
		s, ok := docSessions[name]
		if !ok {
			t.Errorf("docs/cluster.md has a session %q that TestDocsSessions does not know", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			r := newSessionRun(t, bin, terms)
			s.run(r)
			for _, p := range r.procs {
				got := p.out.String()
				for doc, free := range r.ports {
					got = strings.ReplaceAll(got, free, doc)
				}
				got = strings.Join(trimRight(strings.Split(strings.TrimRight(got, "\n"), "\n")), "\n") + "\n"
				id := fmt.Sprintf("%s:%d", strings.TrimPrefix(p.e.file, root+string(filepath.Separator)), p.e.line)
				mu.Lock()
				outputs[id], examples[id] = got, p.e
				mu.Unlock()
				e := p.e
				e.ignore = append(slices.Clone(s.ignore), statusLine)
				e.patterns = s.volatile
				re, err := expectation(e)
				if err != nil {
					t.Fatalf("%s: %v", id, err)
				}
				if !re.MatchString(withoutIgnored(got, e.ignore)) {
					t.Errorf("%s: the output differs from the document (go test -run TestDocsSessions -update rewrites it):\n--- document\n%s\n--- got\n%s", id, strings.Join(e.output, "\n"), got)
				}
			}
		})
	}
	for name := range docSessions {
		if byName[name] == nil {
			t.Errorf("docs/cluster.md has no session %q any more", name)
		}
	}
	if testkit.Update() {
		updateDocs(t, root, examples, outputs)
	}
}

// newSessionRun prepares a folder for a session: the nqueens command bin
// on PATH, a seal key of its own, the NKeys its text says were made before
// (pool.pub and the seeds of liar, h1 and h2), and a free port for each
// address its commands name.
func newSessionRun(t *testing.T, bin string, terms map[int][]example) *sessionRun {
	t.Helper()
	dir := t.TempDir()
	binDir := filepath.Join(dir, ".bin")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(binDir, "nqueens")); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, ".config")
	if err := os.MkdirAll(filepath.Join(cfg, "nqueens"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := seal.CreateFile(filepath.Join(cfg, "nqueens", "seal.key")); err != nil {
		t.Fatal(err)
	}
	testkit.NKeys(t, dir, "pool.pub", "liar", "h1", "h2")
	r := &sessionRun{t: t, dir: dir, terms: terms, ports: map[string]string{},
		env: append(os.Environ(), "PATH="+binDir+string(filepath.ListSeparator)+os.Getenv("PATH"), "XDG_CONFIG_HOME="+cfg, "GOMAXPROCS=2")}
	addr := regexp.MustCompile(`127\.0\.0\.1:\d+`)
	for _, es := range terms {
		for _, e := range es {
			for _, a := range addr.FindAllString(e.cmd, -1) {
				if _, ok := r.ports[a]; !ok {
					r.ports[a] = fmt.Sprintf("127.0.0.1:%d", testkit.FreePort(t))
				}
			}
		}
	}
	t.Cleanup(func() {
		for _, p := range r.procs {
			_ = p.cmd.Process.Kill()
			<-p.done
			if t.Failed() {
				t.Logf("$ %s\n%s", p.e.cmd, p.out.String())
			}
		}
	})
	return r
}
