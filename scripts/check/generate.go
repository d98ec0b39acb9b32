package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"slices"
)

// checkGenerate runs go generate ./... and lists the files it wrote
// differently, added or removed: a generated file that its generator no
// longer makes, committed by hand or left behind by a change to the
// generator. The files stay as go generate left them, ready to commit.
func checkGenerate(r *repo) ([]string, error) {
	before, err := r.hashes()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "generate", "./...")
	cmd.Dir, cmd.Stdout, cmd.Stderr = r.root, os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go generate ./...: %v", err)
	}
	after, err := openRepo(r.root)
	if err != nil {
		return nil, err
	}
	now, err := after.hashes()
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, f := range after.files {
		switch h, ok := before[f]; {
		case !ok:
			problems = append(problems, f+": go generate ./... made this file: commit it, or have the generator not make it")
		case h != now[f]:
			problems = append(problems, f+": go generate ./... changed this file: commit what it wrote")
		}
	}
	for _, f := range r.files {
		if _, ok := now[f]; !ok {
			problems = append(problems, f+": go generate ./... removed this file")
		}
	}
	slices.Sort(problems)
	return problems, nil
}

// hashes are the SHA-256 sums of the tree's files.
func (r *repo) hashes() (map[string][sha256.Size]byte, error) {
	sums := make(map[string][sha256.Size]byte, len(r.files))
	for _, f := range r.files {
		b, err := r.read(f)
		if err != nil {
			return nil, err
		}
		sums[f] = sha256.Sum256(b)
	}
	return sums, nil
}
