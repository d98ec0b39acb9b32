package deploy

// The Kubernetes manifests decoded strictly into the API types (an unknown
// or misspelt field fails), checked against the rules the API server
// enforces for the Job features they use, their command lines parsed by the
// real nqueens command, and the Indexed Job run here shard by shard, as
// the Job controller and kubelet would run it, followed by the merge Job.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// object is one decoded manifest document.
type object struct {
	file string
	doc  int // 1-based, in the file
	obj  any // *batchv1.Job, *appsv1.Deployment, *corev1.PersistentVolumeClaim
}

func (o object) String() string { return fmt.Sprintf("%s (document %d)", o.file, o.doc) }

// newObject returns an empty API object for apiVersion and kind.
func newObject(tm metav1.TypeMeta) (any, error) {
	switch tm.APIVersion + " " + tm.Kind {
	case "batch/v1 Job":
		return &batchv1.Job{}, nil
	case "apps/v1 Deployment":
		return &appsv1.Deployment{}, nil
	case "v1 PersistentVolumeClaim":
		return &corev1.PersistentVolumeClaim{}, nil
	}
	return nil, fmt.Errorf("apiVersion %q kind %q: not a type this test decodes; add it to newObject", tm.APIVersion, tm.Kind)
}

// splitDocuments splits a YAML stream at its "---" lines, dropping
// documents that hold only comments.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	for _, d := range regexp.MustCompile(`(?m)^---[ \t]*$`).Split(string(data), -1) {
		empty := true
		for _, line := range strings.Split(d, "\n") {
			if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "#") {
				empty = false
			}
		}
		if !empty {
			docs = append(docs, []byte(d))
		}
	}
	return docs
}

// decodeStrict decodes one document into its API type as the API server
// does with strict field validation (kubectl's default): field names match
// case-sensitively (encoding/json alone would take "fieldpath" for
// "fieldPath"), and unknown or duplicate fields are refused.
func decodeStrict(doc []byte) (any, error) {
	data, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return nil, err
	}
	var tm metav1.TypeMeta
	if err := json.UnmarshalCaseSensitivePreserveInts(data, &tm); err != nil {
		return nil, err
	}
	obj, err := newObject(tm)
	if err != nil {
		return nil, err
	}
	strict, err := json.UnmarshalStrict(data, obj, json.DisallowDuplicateFields, json.DisallowUnknownFields)
	if err != nil {
		return nil, err
	}
	if len(strict) > 0 {
		return nil, errors.Join(strict...)
	}
	return obj, nil
}

// manifests decodes every document of deploy/kubernetes/*.yaml.
func manifests(t *testing.T) []object {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("kubernetes", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in kubernetes/ (%v)", err)
	}
	var objs []object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range splitDocuments(data) {
			obj, err := decodeStrict(doc)
			if err != nil {
				t.Fatalf("%s (document %d): %v", f, i+1, err)
			}
			objs = append(objs, object{f, i + 1, obj})
		}
	}
	return objs
}

func TestManifestsDecodeStrictly(t *testing.T) {
	objs := manifests(t)
	kinds := map[string]int{}
	for _, o := range objs {
		kinds[fmt.Sprintf("%T", o.obj)]++
	}
	t.Logf("decoded %d objects: %v", len(objs), kinds)
	// Strictness is what makes the test worth having: a misspelt field in a
	// real manifest must be refused.
	data, err := os.ReadFile(filepath.Join("kubernetes", "count-indexed-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, typo := range [][2]string{{"backoffLimitPerIndex:", "backoffLimitPerindex:"}, {"fieldPath:", "fieldpath:"}, {"  parallelism:", "  paralellism:"}} {
		bad := bytes.Replace(data, []byte(typo[0]), []byte(typo[1]), 1)
		if bytes.Equal(bad, data) {
			t.Fatalf("count-indexed-job.yaml has no %q to misspell", typo[0])
		}
		failed := false
		for _, doc := range splitDocuments(bad) {
			if _, err := decodeStrict(doc); err != nil {
				failed = true
				t.Logf("misspelt %s: %v", typo[0], err)
			}
		}
		if !failed {
			t.Errorf("misspelling %s was accepted", typo[0])
		}
	}
}

// podSpecs returns the pod templates of the workloads, by object.
func podSpecs(objs []object) map[object]*corev1.PodSpec {
	specs := map[object]*corev1.PodSpec{}
	for _, o := range objs {
		switch v := o.obj.(type) {
		case *batchv1.Job:
			specs[o] = &v.Spec.Template.Spec
		case *appsv1.Deployment:
			specs[o] = &v.Spec.Template.Spec
		}
	}
	return specs
}

// dnsLabel is what Kubernetes accepts as a Job, container or volume name.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// The rules the API server checks for the Job features the manifests use
// (k8s.io/kubernetes pkg/apis/batch/validation), and the references between
// objects.
func TestManifestsAreValid(t *testing.T) {
	objs := manifests(t)
	claims := map[string]bool{}
	for _, o := range objs {
		if pvc, ok := o.obj.(*corev1.PersistentVolumeClaim); ok {
			claims[pvc.Name] = true
		}
	}
	for _, o := range objs {
		if job, ok := o.obj.(*batchv1.Job); ok {
			checkJob(t, o, job)
		}
	}
	for o, spec := range podSpecs(objs) {
		vols := map[string]bool{}
		for _, v := range spec.Volumes {
			vols[v.Name] = true
			if pvc := v.PersistentVolumeClaim; pvc != nil && !claims[pvc.ClaimName] {
				t.Errorf("%s: volume %s uses claim %q, which no manifest here defines", o, v.Name, pvc.ClaimName)
			}
		}
		for _, c := range spec.Containers {
			if !dnsLabel.MatchString(c.Name) {
				t.Errorf("%s: container name %q is not a DNS label", o, c.Name)
			}
			for _, m := range c.VolumeMounts {
				if !vols[m.Name] {
					t.Errorf("%s: container %s mounts volume %q, which the pod does not have", o, c.Name, m.Name)
				}
			}
		}
	}
}

func checkJob(t *testing.T, o object, job *batchv1.Job) {
	t.Helper()
	s := job.Spec
	if !dnsLabel.MatchString(job.Name) {
		t.Errorf("%s: Job name %q is not a DNS label of at most 63 characters", o, job.Name)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever && s.Template.Spec.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("%s: a Job's pods need restartPolicy Never or OnFailure, got %q", o, s.Template.Spec.RestartPolicy)
	}
	indexed := s.CompletionMode != nil && *s.CompletionMode == batchv1.IndexedCompletion
	if indexed && s.Completions == nil {
		t.Errorf("%s: an Indexed Job needs completions", o)
	}
	if s.BackoffLimitPerIndex != nil {
		if !indexed {
			t.Errorf("%s: backoffLimitPerIndex needs completionMode Indexed", o)
		}
		if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: backoffLimitPerIndex needs restartPolicy Never", o)
		}
	}
	if s.PodFailurePolicy != nil {
		if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			t.Errorf("%s: podFailurePolicy needs restartPolicy Never", o)
		}
		if s.PodReplacementPolicy != nil && *s.PodReplacementPolicy != batchv1.Failed {
			t.Errorf("%s: with podFailurePolicy, podReplacementPolicy must be Failed", o)
		}
	}
	if s.Parallelism != nil && s.Completions != nil && *s.Parallelism > *s.Completions {
		t.Errorf("%s: parallelism %d is more than completions %d", o, *s.Parallelism, *s.Completions)
	}
}

// commandLine is what a container runs: the image's entry point followed by
// args when the manifest gives no command, as the container runtime does.
func commandLine(im *image, c corev1.Container) []string {
	if len(c.Command) > 0 {
		return append(slices.Clone(c.Command), c.Args...)
	}
	return append(slices.Clone(im.entrypoint), c.Args...)
}

// expand replaces $(NAME) by the container's variable NAME, as kubelet does
// in command and args: $$ stands for $, and an unknown name stays as it is.
func expand(s string, vars map[string]string) string {
	re := regexp.MustCompile(`\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		if m == "$$" {
			return "$"
		}
		if v, ok := vars[m[2:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// nqueensArgs returns the arguments a container passes to nqueens: after
// the entry point, or in an "exec nqueens …" shell script.
func nqueensArgs(t *testing.T, o object, im *image, c corev1.Container) []string {
	t.Helper()
	line := commandLine(im, c)
	if len(line) == 3 && (line[0] == "/bin/sh" || line[0] == "sh") && line[1] == "-c" {
		f := strings.Fields(line[2])
		if len(f) < 2 || f[0] != "exec" || f[1] != "nqueens" {
			t.Fatalf("%s: container %s: the shell script %q should be one \"exec nqueens …\"", o, c.Name, line[2])
		}
		return f[2:]
	}
	if _, _, ok := im.lookPath(line[0]); !ok || filepath.Base(line[0]) != "nqueens" {
		t.Fatalf("%s: container %s runs %q, not the image's nqueens", o, c.Name, line[0])
	}
	return line[1:]
}

// The image the manifests run is the Dockerfile's, and its command lines are
// ones nqueens accepts: each is parsed by the command itself, with --help
// added so that it stops after parsing (an unknown flag or a bad value
// fails with status 2).
func TestManifestsRunTheCommand(t *testing.T) {
	objs := manifests(t)
	_, im := dockerImage(t)
	bin := nqueensBin(t)
	images := map[string]bool{}
	for o, spec := range podSpecs(objs) {
		for _, c := range spec.Containers {
			images[c.Image] = true
			args := nqueensArgs(t, o, im, c)
			r := run(t, time.Minute, t.TempDir(), nil, bin, append(slices.Clone(args), "--help")...)
			if r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
				t.Errorf("%s: container %s: nqueens %s: exit %d: %s", o, c.Name, strings.Join(args, " "), r.code, r.stderr)
			}
			if cmd := commandLine(im, c); cmd[0] == "/bin/sh" && !strings.HasPrefix(im.base, "alpine") && !strings.HasPrefix(im.base, "debian") {
				t.Errorf("%s: container %s needs /bin/sh, and the image is %s", o, c.Name, im.base)
			}
			if sc := spec.SecurityContext; sc != nil && sc.FSGroup != nil {
				if _, group, _ := strings.Cut(im.user, ":"); group != strconv.FormatInt(*sc.FSGroup, 10) {
					t.Errorf("%s: fsGroup %d, but the image runs as %s: the volume would not be writable", o, *sc.FSGroup, im.user)
				}
			}
		}
	}
	if len(images) != 1 {
		t.Errorf("the manifests run %d different images %v; all run the one deploy/Dockerfile builds", len(images), images)
	}
}

// indexedJob is the count Job and how its shards name their ledgers.
type indexedJob struct {
	obj       object
	job       *batchv1.Job
	container corev1.Container
	mount     string // where the ledgers volume is mounted
}

func findJobs(t *testing.T, objs []object) (count indexedJob, merge object, mergeJob *batchv1.Job) {
	t.Helper()
	for _, o := range objs {
		job, ok := o.obj.(*batchv1.Job)
		if !ok {
			continue
		}
		if job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == batchv1.IndexedCompletion {
			c := job.Spec.Template.Spec.Containers[0]
			count = indexedJob{o, job, c, c.VolumeMounts[0].MountPath}
		} else {
			merge, mergeJob = o, job
		}
	}
	if count.job == nil || mergeJob == nil {
		t.Fatal("want an Indexed count Job and a merge Job")
	}
	return count, merge, mergeJob
}

// containerEnv resolves a container's variables for the pod of a given
// completion index, as kubelet would: the controller adds
// JOB_COMPLETION_INDEX, and the pod's annotation holds the index.
func containerEnv(t *testing.T, o object, c corev1.Container, index int) map[string]string {
	t.Helper()
	vars := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(index)}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			vars[e.Name] = expand(e.Value, vars)
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.annotations['batch.kubernetes.io/job-completion-index']":
			vars[e.Name] = strconv.Itoa(index)
		default:
			t.Fatalf("%s: variable %s comes from %v, which this test does not know how to fill", o, e.Name, e.ValueFrom)
		}
	}
	return vars
}

// The count Job and the merge Job agree with each other: K, N and the
// ledger names.
func TestIndexedJobAgreesWithMerge(t *testing.T) {
	objs := manifests(t)
	_, im := dockerImage(t)
	cj, mo, mj := findJobs(t, objs)
	args := nqueensArgs(t, cj.obj, im, cj.container)
	if len(args) < 2 || args[0] != "count" {
		t.Fatalf("%s: the shards run %v, not nqueens count N", cj.obj, args)
	}
	n := args[1]
	if i := slices.Index(args, "--shards"); i < 0 || i+1 == len(args) || args[i+1] != strconv.Itoa(int(*cj.job.Spec.Completions)) {
		t.Errorf("%s: --shards must equal completions (%d): %v", cj.obj, *cj.job.Spec.Completions, args)
	}
	if !slices.Contains(args, "--shard-from-env") {
		t.Errorf("%s: the shards must take their index from JOB_COMPLETION_INDEX (--shard-from-env): %v", cj.obj, args)
	}
	for _, name := range []string{cj.job.Name, mj.Name} {
		if !strings.HasSuffix(name, "-"+n) {
			t.Errorf("Job %s does not end in N = %s, unlike the count it runs", name, n)
		}
	}
	margs := nqueensArgs(t, mo, im, mj.Spec.Template.Spec.Containers[0])
	key := flagValue(args, "--key-file")
	if key == "" {
		t.Errorf("%s: the shards seal their ledgers under the user's key of each Pod; give them one with --key-file: %v", cj.obj, args)
	}
	if want := []string{"merge", "--key-file", key, cj.mount + "/n" + n + "-shard-*.jsonl"}; !slices.Equal(margs, want) {
		t.Errorf("%s: merge runs %v, want %v (the shards' key)", mo, margs, want)
	}
	if got, want := mj.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName, cj.job.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName; got != want {
		t.Errorf("%s: merge reads claim %s, the shards write %s", mo, got, want)
	}
}

// The Indexed Job carried out here: one process per completion index with
// the pod's variables and arguments, the ledgers volume a folder, then the
// merge Job's script over that folder. Only N is made small (10) so that it
// runs in a second; everything else is the manifests' own.
func TestIndexedJobRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs one nqueens process per shard")
	}
	objs := manifests(t)
	_, im := dockerImage(t)
	bin := nqueensBin(t)
	cj, mo, mj := findJobs(t, objs)
	const n = 10
	volume := t.TempDir()
	// The key's Secret, as a file of the test's.
	keyFile := flagValue(nqueensArgs(t, cj.obj, im, cj.container), "--key-file")
	testKey := filepath.Join(t.TempDir(), "seal.key")
	writeSealKey(t, testKey)
	k := int(*cj.job.Spec.Completions)
	for i := range k {
		vars := containerEnv(t, cj.obj, cj.container, i)
		args := nqueensArgs(t, cj.obj, im, cj.container)
		args[1] = strconv.Itoa(n)
		for j, a := range args {
			a = expand(a, vars)
			if strings.Contains(a, "$(") {
				t.Fatalf("%s: argument %q names a variable the container does not have", cj.obj, args[j])
			}
			if rest, ok := strings.CutPrefix(a, cj.mount+"/"); ok {
				a = filepath.Join(volume, rest)
			}
			if a == keyFile {
				a = testKey
			}
			args[j] = a
		}
		env := []string{}
		for name, v := range vars {
			env = append(env, name+"="+v)
		}
		if r := run(t, time.Minute, t.TempDir(), env, bin, args...); r.code != 0 {
			t.Fatalf("pod %d: nqueens %s: exit %d: %s", i, strings.Join(args, " "), r.code, r.stderr)
		}
	}
	ledgers, _ := filepath.Glob(filepath.Join(volume, "*"))
	if len(ledgers) != k {
		t.Fatalf("%d pods wrote %d ledgers: %v", k, len(ledgers), ledgers)
	}

	// The merge Job's script, with nqueens on the PATH as in the image.
	c := mj.Spec.Template.Spec.Containers[0]
	line := commandLine(im, c)
	script := strings.ReplaceAll(line[len(line)-1], c.VolumeMounts[0].MountPath+"/", volume+"/")
	script = strings.ReplaceAll(script, keyFile, testKey)
	path := "PATH=" + filepath.Dir(bin) + string(filepath.ListSeparator) + os.Getenv("PATH")
	if r := run(t, time.Minute, t.TempDir(), []string{path}, "/bin/sh", "-c", script); r.code != 0 || r.stdout != published(t, n) {
		t.Fatalf("%s: %s: exit %d, stdout %q, stderr %s", mo, script, r.code, r.stdout, r.stderr)
	}
	// A lost shard: merge fails and names it, as the manifest says.
	lost := 5 % k
	lostFile := filepath.Join(volume, fmt.Sprintf("n%s-shard-%d.jsonl", nqueensArgs(t, cj.obj, im, cj.container)[1], lost))
	if err := os.Remove(lostFile); err != nil {
		t.Fatal(err)
	}
	r := run(t, time.Minute, t.TempDir(), []string{path}, "/bin/sh", "-c", script)
	if want := fmt.Sprintf("no result at all from shard %d/%d", lost, k); r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Errorf("merge without %s: exit %d, stderr %q; want exit 1 and %q", lostFile, r.code, r.stderr, want)
	}
}

// flagValue is the value of flag in args, or "".
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// writeSealKey writes a random seal key (64 hex digits) to path, as nqueens
// makes one and a Secret would hold it.
func writeSealKey(t *testing.T, path string) {
	t.Helper()
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(hex.EncodeToString(b)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
