package deploy

// deploy/Dockerfile checked without a container runtime: its build stage is
// carried out instruction by instruction in a folder standing for the
// image's file system (COPY from the build context that docker would send,
// RUN with its absolute paths moved under that folder), and the final stage
// must find the program where the build put it, run it as the entry point,
// and need no C library (alpine has musl, not glibc).

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	line int
	cmd  string // upper case: FROM, RUN, COPY…
	args string
}

// stage is one FROM and what follows it.
type stage struct {
	name, base string
	instrs     []instruction
}

// dockerfile is a parsed Dockerfile.
type dockerfile struct {
	path   string
	stages []stage
}

// parseDockerfile reads the instructions of a Dockerfile: comments and
// blank lines dropped, lines ending in a backslash joined.
func parseDockerfile(file string) (*dockerfile, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := &dockerfile{path: file}
	sc := bufio.NewScanner(f)
	var cur string
	start, n := 0, 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if cur == "" && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cur == "" {
			start = n
		}
		if rest, ok := strings.CutSuffix(line, `\`); ok {
			cur += rest + " "
			continue
		}
		cur += line
		cmd, args, _ := strings.Cut(cur, " ")
		in := instruction{start, strings.ToUpper(cmd), strings.TrimSpace(args)}
		cur = ""
		if in.cmd == "FROM" {
			f := strings.Fields(in.args)
			s := stage{base: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				s.name = f[2]
			} else if len(f) != 1 {
				return nil, fmt.Errorf("%s:%d: FROM %s: want IMAGE [AS NAME]", file, start, in.args)
			}
			d.stages = append(d.stages, s)
			continue
		}
		if len(d.stages) == 0 {
			return nil, fmt.Errorf("%s:%d: %s before the first FROM", file, start, in.cmd)
		}
		d.stages[len(d.stages)-1].instrs = append(d.stages[len(d.stages)-1].instrs, in)
	}
	if cur != "" {
		return nil, fmt.Errorf("%s: the last instruction ends in a backslash", file)
	}
	return d, sc.Err()
}

// stage returns the stage called name.
func (d *dockerfile) stage(name string) (*stage, bool) {
	for i := range d.stages {
		if d.stages[i].name == name {
			return &d.stages[i], true
		}
	}
	return nil, false
}

// defaultPath is the PATH of the alpine and Debian images, and what Docker
// sets when an image has none.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// image is what the final stage puts together.
type image struct {
	entrypoint []string          // ENTRYPOINT, exec form
	copies     map[string]string // destination in the image → source file on this machine
	user       string            // USER
	path       string            // PATH in the image
	base       string            // the base image
}

// lookPath finds the file the image runs for a command name, as the
// container runtime would: a name with a slash as it is, else in PATH.
func (im *image) lookPath(name string) (dst, src string, ok bool) {
	if strings.Contains(name, "/") {
		src, ok = im.copies[name]
		return name, src, ok
	}
	for _, dir := range filepath.SplitList(im.path) {
		if src, ok := im.copies[path.Join(dir, name)]; ok {
			return path.Join(dir, name), src, true
		}
	}
	return "", "", false
}

// buildImage carries out the build stages the final stage copies from and
// returns what the final stage holds. Only the instructions the Dockerfile
// uses are understood; anything else fails the test, so that a new
// instruction gets checked rather than ignored.
func buildImage(t *testing.T, d *dockerfile, context []string) *image {
	t.Helper()
	final := d.stages[len(d.stages)-1]
	im := &image{copies: map[string]string{}, path: defaultPath, base: final.base}
	roots := map[string]string{} // stage name → its file system here
	for _, in := range final.instrs {
		where := fmt.Sprintf("%s:%d", d.path, in.line)
		switch in.cmd {
		case "COPY":
			f := strings.Fields(in.args)
			from, ok := strings.CutPrefix(f[0], "--from=")
			if !ok || len(f) != 3 {
				t.Fatalf("%s: COPY %s: the final stage should copy one file from a build stage (COPY --from=STAGE SRC DST)", where, in.args)
			}
			root, done := roots[from]
			if !done {
				st, ok := d.stage(from)
				if !ok {
					t.Fatalf("%s: COPY --from=%s: no stage is called %s", where, from, from)
				}
				root = runStage(t, d, st, context)
				roots[from] = root
			}
			src := filepath.Join(root, filepath.FromSlash(f[1]))
			if fi, err := os.Stat(src); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s: COPY --from=%s %s: the build stage made no such file (%v)", where, from, f[1], err)
			}
			im.copies[f[2]] = src
		case "USER":
			im.user = in.args
		case "ENTRYPOINT":
			if err := json.Unmarshal([]byte(in.args), &im.entrypoint); err != nil || len(im.entrypoint) == 0 {
				t.Fatalf("%s: ENTRYPOINT %s: want the exec form, a JSON array (%v)", where, in.args, err)
			}
		case "ENV":
			if v, ok := strings.CutPrefix(in.args, "PATH="); ok {
				im.path = v
			}
		default:
			t.Fatalf("%s: %s in the final stage is not understood by this test: teach buildImage what it does", where, in.cmd)
		}
	}
	return im
}

// runStage carries out a build stage in a new folder standing for its file
// system, and returns the folder.
func runStage(t *testing.T, d *dockerfile, st *stage, context []string) string {
	t.Helper()
	root, err := os.MkdirTemp(scratch(t), "stage-")
	if err != nil {
		t.Fatal(err)
	}
	workdir := "/"
	env := []string{}
	// abs moves an absolute path of the image under root.
	abs := func(p string) string {
		if !path.IsAbs(p) {
			p = path.Join(workdir, p)
		}
		return filepath.Join(root, filepath.FromSlash(p))
	}
	absPath := regexp.MustCompile(`(^|[\s=])(/[^\s]*)`)
	for _, in := range st.instrs {
		where := fmt.Sprintf("%s:%d", d.path, in.line)
		switch in.cmd {
		case "WORKDIR":
			workdir = path.Join(workdir, in.args)
			if err := os.MkdirAll(abs(workdir), 0o755); err != nil {
				t.Fatal(err)
			}
		case "ENV":
			env = append(env, in.args)
		case "COPY":
			f := strings.Fields(in.args)
			if len(f) < 2 || strings.HasPrefix(f[0], "--") {
				t.Fatalf("%s: COPY %s: this test copies plain sources from the context", where, in.args)
			}
			srcs, dst := f[:len(f)-1], f[len(f)-1]
			for _, src := range srcs {
				if err := copyContext(context, path.Clean(src), abs(dst)); err != nil {
					t.Fatalf("%s: COPY %s: %v", where, in.args, err)
				}
			}
		case "RUN":
			script := absPath.ReplaceAllStringFunc(in.args, func(m string) string {
				i := strings.Index(m, "/")
				return m[:i] + abs(m[i:])
			})
			cmd := exec.Command("sh", "-c", script)
			cmd.Dir = abs(workdir)
			cmd.Env = append(append(os.Environ(), "GOFLAGS="), env...)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: RUN %s (run here as %q): %v\n%s", where, in.args, script, err, out)
			}
			t.Logf("%s: RUN %s: %s", where, in.args, time.Since(start).Round(time.Millisecond))
		default:
			t.Fatalf("%s: %s in stage %q is not understood by this test: teach runStage what it does", where, in.cmd, st.name)
		}
	}
	return root
}

// copyContext copies the context files named by src ("." for all, a file,
// or a folder) to dst, as COPY does: a file into dst/ when dst ends in a
// slash or is a folder, a folder's content into dst.
func copyContext(context []string, src, dst string) error {
	n := 0
	for _, f := range context {
		var rel string
		switch {
		case src == ".":
			rel = f
		case f == src:
			rel = path.Base(f)
		case strings.HasPrefix(f, src+"/"):
			rel = strings.TrimPrefix(f, src+"/")
		default:
			continue
		}
		if err := copyFile(filepath.Join(repoRoot, filepath.FromSlash(f)), filepath.Join(dst, filepath.FromSlash(rel))); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("%s is not in the build context", src)
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// buildContext lists the files docker sends from the repository root (as
// slash paths): those of a clone, that is tracked and not git-ignored, less
// what the Dockerfile's ignore file names.
func buildContext(t *testing.T, ignoreFile string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	patterns, err := readIgnore(ignoreFile)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if _, err := os.Lstat(filepath.Join(repoRoot, f)); err != nil {
			continue // deleted in the working tree, not yet committed
		}
		if !ignored(patterns, f) {
			files = append(files, f)
		}
	}
	return files
}

// readIgnore reads a .dockerignore file; only plain patterns are
// understood ("!" exceptions and "**" fail the test's reading).
func readIgnore(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var patterns []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "!") || strings.Contains(line, "**") {
			return nil, fmt.Errorf("%s:%d: %q: this test understands plain patterns only", file, i+1, line)
		}
		p := path.Clean(strings.TrimPrefix(line, "/"))
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("%s:%d: %q: %v", file, i+1, line, err)
		}
		patterns = append(patterns, p)
	}
	return patterns, nil
}

// ignored reports whether a pattern matches the file or a folder above it,
// as in .dockerignore.
func ignored(patterns []string, file string) bool {
	for _, p := range patterns {
		for f := file; f != "."; f = path.Dir(f) {
			if ok, _ := path.Match(p, f); ok {
				return true
			}
		}
	}
	return false
}

// goModVersion is the go line of the nqueens module, e.g. "1.26.8".
func goModVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	return string(m[1])
}

// The image, built once for all tests that need it.
var (
	imageMu   sync.Mutex
	imageDone bool
	imageFile *dockerfile
	imageOut  *image
)

// dockerImage parses deploy/Dockerfile and builds it as far as can be done
// here.
func dockerImage(t *testing.T) (*dockerfile, *image) {
	t.Helper()
	imageMu.Lock()
	defer imageMu.Unlock()
	if imageDone {
		if imageOut == nil {
			t.Fatal("building the image failed in an earlier test")
		}
		return imageFile, imageOut
	}
	imageDone = true
	d, err := parseDockerfile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.stages) < 2 {
		t.Fatalf("%s: want a build stage and a final stage, got %d stage(s)", d.path, len(d.stages))
	}
	imageFile, imageOut = d, buildImage(t, d, buildContext(t, "Dockerfile.dockerignore"))
	return imageFile, imageOut
}

func TestDockerfileBuildsTheCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds nqueens from a copy of the build context")
	}
	d, im := dockerImage(t)

	// The build stage's Go is the one go.mod asks for.
	for _, st := range d.stages[:len(d.stages)-1] {
		if tag, ok := strings.CutPrefix(st.base, "golang:"); ok {
			want := goModVersion(t)
			if mm := strings.Join(strings.SplitN(want, ".", 3)[:2], "."); !strings.HasPrefix(tag, mm) {
				t.Errorf("%s: stage %s builds with %s, but go.mod says go %s", d.path, st.name, st.base, want)
			}
		}
	}
	if len(im.entrypoint) == 0 {
		t.Fatalf("%s: the final stage has no ENTRYPOINT", d.path)
	}
	dst, src, ok := im.lookPath(im.entrypoint[0])
	if !ok {
		t.Fatalf("%s: ENTRYPOINT %q is nowhere in the image's PATH %s; the image holds %v", d.path, im.entrypoint[0], im.path, im.copies)
	}
	t.Logf("ENTRYPOINT %q runs %s, built by the build stage", im.entrypoint, dst)

	// Static: no program interpreter, so it runs on alpine's musl.
	ef, err := elf.Open(src)
	if err != nil {
		t.Fatalf("%s: %v", dst, err)
	}
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s is linked dynamically (it has a program interpreter); build it with CGO_ENABLED=0", dst)
		}
	}
	ef.Close()

	// The image's program counts.
	args := append(im.entrypoint[1:], "count", "10")
	if r := run(t, time.Minute, t.TempDir(), nil, src, args...); r.code != 0 || r.stdout != published(t, 10) {
		t.Errorf("the image's %s count 10: exit %d, stdout %q, stderr %q", dst, r.code, r.stdout, r.stderr)
	}
	if !regexp.MustCompile(`^\d+(:\d+)?$`).MatchString(im.user) || strings.HasPrefix(im.user, "0") {
		t.Errorf("%s: USER %q: want a numeric user other than root (Kubernetes runAsNonRoot checks numbers)", d.path, im.user)
	}
}

// The build above shows the context holds what nqueens is built from; this
// shows what counting runs leave in the folder stays out of it.
func TestDockerIgnoreLeavesOutRuns(t *testing.T) {
	patterns, err := readIgnore("Dockerfile.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"ledgers/n20-shard-3.jsonl", "nqueens-jetstream/jetstream/x", "nqueens-12_3.out", "nqueens-merge-13.out", "nqueens"} {
		if !ignored(patterns, f) {
			t.Errorf("Dockerfile.dockerignore sends %s to the image builder", f)
		}
	}
	for _, f := range []string{"go.mod", "go.sum", "cmd/nqueens/main.go", "internal/reference/queens-counts.tsv", "count/count.go"} {
		if ignored(patterns, f) {
			t.Errorf("Dockerfile.dockerignore leaves out %s", f)
		}
	}
}
