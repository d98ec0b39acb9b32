package queue

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/flock"
)

// storeLockName is the lock file a coordinator keeps in its store folder.
const storeLockName = "nqueens-coordinator.lock"

// LockStore takes an exclusive lock on the store folder of an embedded
// server, as a ledger is locked, so that a second coordinator on the same
// folder stops at once instead of erasing the first one's results. The lock
// file says who holds it (pid and host), and the error of a second taker
// names them. It returns the function that releases the lock.
func LockStore(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, storeLockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	release, err := flock.Lock(f)
	if err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		who := strings.TrimSpace(string(holder))
		if who == "" {
			who = "another process"
		}
		return nil, fmt.Errorf("store %s is in use by another coordinator (%s); stop it first, or give another --store", dir, who)
	}
	host, _ := os.Hostname()
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte("pid "+strconv.Itoa(os.Getpid())+" on host "+host+"\n"), 0)
	return func() {
		_ = f.Truncate(0)
		release()
		f.Close()
	}, nil
}
