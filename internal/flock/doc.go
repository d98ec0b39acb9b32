// Package flock takes exclusive operating-system locks on open files, so
// that a file (a ledger) or a folder (a coordinator's store) has one owner
// at a time, as SQLite and Postgres lock what they own: the lock is the
// kernel's, held by an open file, and goes away with the process.
package flock
