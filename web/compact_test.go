package web

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/nqueens/nqueens/classic"
)

// traceLines returns the events of algo's trace on n×n, at most limit, in
// the full JSON form and in the compact form.
func traceLines(t testing.TB, algo string, n, limit int) (full, compact []json.RawMessage) {
	t.Helper()
	a, err := classic.Lookup(algo)
	if err != nil {
		t.Fatal(err)
	}
	trace, ok := classic.TraceOf(a)
	if !ok {
		t.Fatalf("%s cannot be traced", algo)
	}
	enc := newCompactEncoder(n)
	for e, err := range trace(context.Background(), n) {
		if err != nil {
			t.Fatal(err)
		}
		if len(full) == limit {
			break
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		full = append(full, b)
		compact = append(compact, append(json.RawMessage(nil), enc.encode(e)...))
	}
	return full, compact
}

// nodeScript checks, for each trace of its input, that the page's reader
// (tracestore.js) rebuilds every event of the full form from the compact
// one, in chunks of a few events; that the frames of bitmask steps are those
// the page kept before it read compact traces (each call's masks from its
// own last step); and that the tree is the one the page built from full
// events.
const nodeScript = `
import { readFileSync } from 'node:fs';
import { TraceBuilder, TraceStore } from './tracestore.mjs';

// The page's tree before the compact form, built from full events.
function referenceTree(events) {
  const t = { parent: [-1], depth: [0], col: [0], kind: ['root'], step: [0], end: [Infinity], found: [Infinity], left: [Infinity], created: [], topAt: [] };
  const path = [0];
  for (const e of events) {
    const top = path[path.length - 1];
    const node = (kind) => {
      const id = t.parent.length;
      t.parent.push(top); t.depth.push(t.depth[top] + 1); t.col.push(e.col); t.kind.push(kind); t.step.push(e.step);
      t.end.push(kind === 'reject' ? id + 1 : Infinity); t.found.push(Infinity); t.left.push(kind === 'reject' ? e.step : Infinity);
      return id;
    };
    if (e.candidate === undefined) {
      if (e.kind === 'place') path.push(node('place'));
      else if (e.kind === 'reject') node('reject');
      else if (e.kind === 'remove' && path.length > 1) { const v = path.pop(); t.end[v] = t.parent.length; t.left[v] = e.step; }
      else if (e.kind === 'solution') { for (const id of path) t.found[id] = Math.min(t.found[id], e.step); t.kind[top] = 'solution'; }
    }
    t.created.push(t.parent.length);
    t.topAt.push(path[path.length - 1]);
  }
  return t;
}

const kinds = ['root', 'place', 'reject', 'solution'];
const fail = (msg) => { console.log(msg); process.exit(1); };
for (const tc of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  const where = tc.algo + ' n=' + tc.n;
  const b = new TraceBuilder(tc.n, 7);
  const s = new TraceStore(tc.n);
  tc.compact.forEach((o, k) => {
    b.add(o);
    if (k % 5 === 4) s.apply(b.take().batch);
  });
  s.apply(b.take().batch);
  if (s.length !== tc.full.length) fail(where + ': ' + s.length + ' events rebuilt, want ' + tc.full.length);
  let frames = [];
  tc.full.forEach((want, pos) => {
    const got = s.event(pos);
    if (JSON.stringify(got) !== JSON.stringify(want)) fail(where + ' step ' + (pos + 1) + ':\n got  ' + JSON.stringify(got) + '\n want ' + JSON.stringify(want));
    if (want.masks && want.row) {
      frames = frames.slice(0, want.row - 1);
      frames[want.row - 1] = want.masks;
      if (JSON.stringify(got.frames) !== JSON.stringify(frames)) fail(where + ' step ' + (pos + 1) + ': frames ' + JSON.stringify(got.frames) + ', want ' + JSON.stringify(frames));
    }
    if (s.kind(pos) === 4 && !s.solutions.includes(pos)) fail(where + ': solution at ' + pos + ' not listed');
  });
  const ref = referenceTree(tc.full);
  const tree = s.tree;
  if (tree.count !== ref.parent.length) fail(where + ': ' + tree.count + ' tree nodes, want ' + ref.parent.length);
  for (let v = 1; v < tree.count; v++) {
    const got = [tree.parent[v], tree.depth[v], tree.col[v], kinds[tree.kind[v]], tree.step[v], tree.end[v], tree.found[v], tree.left[v]];
    const want = [ref.parent[v], ref.depth[v], ref.col[v], ref.kind[v], ref.step[v], ref.end[v], ref.found[v], ref.left[v]];
    if (JSON.stringify(got) !== JSON.stringify(want)) fail(where + ': tree node ' + v + ' ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
  }
  tc.full.forEach((_, pos) => {
    if (s.created(pos) !== ref.created[pos] || s.topAt(pos) !== ref.topAt[pos]) fail(where + ': tree at step ' + (pos + 1));
  });
}
console.log('ok');
`

// TestCompactTraceDecodes runs the page's reader of compact traces under
// Node.js on every traceable strategy: it must give back each event of the
// full form exactly.
func TestCompactTraceDecodes(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed, and CI is set")
		}
		t.Skip("needs Node.js")
	}
	type trace struct {
		Algo    string            `json:"algo"`
		N       int               `json:"n"`
		Full    []json.RawMessage `json:"full"`
		Compact []json.RawMessage `json:"compact"`
	}
	var traces []trace
	for _, a := range classic.All() {
		if _, ok := classic.TraceOf(a); !ok {
			continue
		}
		for _, n := range []int{1, 2, 4, 6, 9} {
			limit := 3000
			if testing.Short() {
				limit = 400
			}
			full, compact := traceLines(t, a.Name(), n, limit)
			traces = append(traces, trace{a.Name(), n, full, compact})
		}
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("static", "js", "tracestore.js"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(traces)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"tracestore.mjs": src, "check.mjs": []byte(nodeScript), "traces.json": in} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("node", "check.mjs", "traces.json")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("node: %v\n%s", err, out)
	}
}

// TestCompactTraceSize measures the streams on the wire, as `nqueens
// serve` sends them (issue 24's targets: the 8-queens stack trace under
// 400 KB, N = 20 at the default event limit under 3 MB): the compact form
// the page reads, with gzip (what a browser asks for over plain HTTP) and
// with brotli, and the full form with brotli. The server is the command,
// built without the race detector: the race detector adds nothing to a
// size, and made the test's 600,000 events take 72 s to compress.
func TestCompactTraceSize(t *testing.T) {
	if testing.Short() {
		t.Skip("runs traces of 200,000 steps (-short)")
	}
	_, base := serveBinary(t)
	size := func(query, accept string) (wire, events int) {
		req, _ := http.NewRequest("GET", base+"/api/trace?"+query, nil)
		req.Header.Set("Accept-Encoding", accept)
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		counted := &countingReader{r: res.Body}
		var body io.Reader
		switch ce, want := res.Header.Get("Content-Encoding"), map[string]string{"gzip": "gzip", "gzip, br": "br"}[accept]; {
		case ce != want:
			t.Fatalf("%s, Accept-Encoding %q: Content-Encoding %q, want %q", query, accept, ce, want)
		case ce == "br":
			body = brotli.NewReader(counted)
		default:
			if body, err = gzip.NewReader(counted); err != nil {
				t.Fatal(err)
			}
		}
		sc := bufio.NewScanner(body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				events++
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		return counted.n, events
	}
	for _, tc := range []struct{ query, accept string }{
		{"n=8&algo=stack&limit=100000&form=compact", "gzip"}, // as the page asks
		{"n=8&algo=stack&limit=100000&form=compact", "gzip, br"},
		{"n=8&algo=stack", "gzip, br"}, // the full form
	} {
		wire, events := size(tc.query, tc.accept)
		t.Logf("%s, %s: %d bytes on the wire, %d events", tc.query, tc.accept, wire, events)
		if wire >= 400_000 || events != 17869+1 {
			t.Errorf("%s, %s: %d bytes, %d events; want under 400 KB and 17,870", tc.query, tc.accept, wire, events)
		}
	}
	// The page's default, the largest (bitmask's masks and sentences) and a
	// brute force (a whole board each step); every strategy measured
	// 0.4 to 2.1 MB with gzip.
	for _, algo := range []string{"stack", "bitmask", "brute-rows"} {
		wire, events := size("n=20&form=compact&algo="+algo, "gzip")
		t.Logf("n=20 %s: %d bytes on the wire, %d events", algo, wire, events)
		if wire >= 3_000_000 || events != 200_001 {
			t.Errorf("n=20 %s: %d bytes on the wire, %d events; want under 3 MB and 200,001", algo, wire, events)
		}
	}
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += k
	return k, err
}

func TestAccepts(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   bool // gzip
		br     bool
	}{
		{"", false, false},
		{"gzip", true, false},
		{"gzip, deflate, br", true, true},
		{"br;q=1.0, gzip;q=0.8", true, true},
		{"GZIP", true, false},
		{"x-gzip", true, false},
		{"gzip;q=0", false, false},
		{"gzip;q=0.000", false, false},
		{"*", true, true},
		{"*;q=0", false, false},
		{"gzip;q=0, *", false, true},
		{"br, identity", false, true},
		{"BR;q=0", false, false},
		{"x-br", false, false},
		{"gzip;q=x", false, false},
	} {
		if got := accepts(tc.header, "gzip"); got != tc.want {
			t.Errorf("accepts(%q, gzip) = %v, want %v", tc.header, got, tc.want)
		}
		if got := accepts(tc.header, "br"); got != tc.br {
			t.Errorf("accepts(%q, br) = %v, want %v", tc.header, got, tc.br)
		}
	}
}
