package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/nkeys"
)

// NKeys makes a user NKey for each name in dir: its seed in NAME.nk (a
// worker's --nats-nkey), and its public key, one line each, in the file
// pubs of dir (the coordinator's --auth-nkeys). It returns the path of
// pubs and each name's seed file.
func NKeys(t testing.TB, dir, pubs string, names ...string) (string, map[string]string) {
	t.Helper()
	seeds := map[string]string{}
	var lines []string
	for _, name := range names {
		kp, err := nkeys.CreateUser()
		if err != nil {
			t.Fatal(err)
		}
		seed, _ := kp.Seed()
		pub, _ := kp.PublicKey()
		seeds[name] = filepath.Join(dir, name+".nk")
		if err := os.WriteFile(seeds[name], append(seed, '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, pub)
	}
	path := filepath.Join(dir, pubs)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, seeds
}
