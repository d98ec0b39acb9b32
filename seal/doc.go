// Package seal authenticates the results nqueens stores outside its own
// memory (count checkpoints, ledger lines, results on the work queue)
// with a secret key, so that a stored count can only come from someone
// who holds the key. A public checksum catches accidents only: anyone can
// recompute it after an edit. A keyed seal, HMAC-SHA-256 (RFC 2104, Go's
// crypto/hmac), cannot be made without the key, so an edited, forged or
// resealed object is refused for every N, past the published table too.
//
// # Grammar
//
// A sealed object is the JSON encoding of a value, an object, with one more
// member at its end:
//
//	{"format":"…","n":16,…,"seal":"3f9a0c17be42.5d0e…"}
//
// where "seal" is the key's ID (12 hex digits, see [Key.ID]), a dot, and
// the 64 hex digits of the HMAC-SHA-256 under the key of the bytes of the
// same object without the seal member: everything before `,"seal":"`
// followed by `}`. Those bytes are authenticated as they are; nothing is
// re-encoded before the check.
//
// # Keys
//
// A key is 32 random bytes, kept as 64 hex digits on the first line of a
// file of mode 0600. [Default] keeps one per user in the configuration
// folder, created on first use; a pool of machines shares one given to
// each with --key-file, as it shares its credentials. Whoever holds the key
// can make results that every check of a single result accepts; whoever
// does not can read, copy, delete and reorder sealed objects, but not
// change one or make one. docs/security.md sets out the whole threat model.
package seal
