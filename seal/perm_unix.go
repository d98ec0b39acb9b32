//go:build unix

package seal

import (
	"io/fs"
	"os"
	"syscall"
)

// ownOpenFile reports whether fi is a regular file of this user's that
// others may read or write. A file of another owner (a Kubernetes secret
// owned by root and read through its group) is that owner's choice, and a
// pipe (--key-file <(pass show nqueens)) holds no key at rest.
func ownOpenFile(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && fi.Mode().IsRegular() && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o077 != 0
}
