package queue

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/flock"
)

// storeLockName is the file in a store folder that says which coordinator
// holds the folder's lock.
const storeLockName = "nqueens-coordinator.lock"

// LockStore takes an exclusive lock on the store folder of an embedded
// server, so that a second coordinator on the same folder stops at once
// instead of erasing the first one's results. The lock is the operating
// system's, on the folder itself, held open until unlock: deleting or
// replacing a file in it lets no second coordinator in, and a coordinator
// that dies drops it. The file nqueens-coordinator.lock says who holds it
// (pid and host), and the error of a second taker names them.
func LockStore(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	release, err := flock.Lock(d)
	path := filepath.Join(dir, storeLockName)
	if err != nil {
		holder, _ := os.ReadFile(path)
		d.Close()
		who := strings.TrimSpace(string(holder))
		if who == "" {
			who = "another process"
		}
		return nil, fmt.Errorf("store %s is in use by another coordinator (%s); stop it first, or give another --store", dir, who)
	}
	host, _ := os.Hostname()
	_ = os.WriteFile(path, []byte("pid "+strconv.Itoa(os.Getpid())+" on host "+host+"\n"), 0o644)
	return func() {
		_ = os.Remove(path)
		release()
		d.Close()
	}, nil
}
