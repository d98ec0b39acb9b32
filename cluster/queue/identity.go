package queue

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nats-io/nkeys"
)

// Identity is who a worker votes as: the credential it connects with, not
// a name it picks. A worker with an NKey (its seed file, or the seed in a
// JWT credentials file) signs every result with it, and its identity is
// the public key ("U…"); the coordinator counts two results as two voters
// only when two different keys of its voters list signed them. A worker
// without one votes as the shared credential: all such workers together
// are one voter, whatever names they give.
type Identity struct {
	kp  nkeys.KeyPair // nil for the shared credential
	pub string
}

// SharedIdentity is the identity of workers without an NKey.
func SharedIdentity() Identity { return Identity{} }

// IdentityFromSeed is the identity of an NKey seed, such as `nk -gen user`
// writes (a bare seed, or one in a decorated credentials file).
func IdentityFromSeed(seed []byte) (Identity, error) {
	kp, err := nkeys.ParseDecoratedUserNKey(seed)
	if err != nil {
		return Identity{}, err
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return Identity{}, err
	}
	return Identity{kp: kp, pub: pub}, nil
}

// LoadIdentity is the identity of the credential o connects with: the
// NKey of o.NKey or of o.Creds, else the shared credential.
func LoadIdentity(o ConnOptions) (Identity, error) {
	for _, path := range []string{o.NKey, o.Creds} {
		if path == "" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return Identity{}, fmt.Errorf("credential: %w", err)
		}
		id, err := IdentityFromSeed(b)
		if err != nil {
			return Identity{}, fmt.Errorf("credential %s holds no user NKey seed: %v", path, err)
		}
		return id, nil
	}
	if o.seed != nil {
		return IdentityFromSeed(o.seed)
	}
	return SharedIdentity(), nil
}

// Public is the identity's public NKey, or "" for the shared credential.
func (id Identity) Public() string { return id.pub }

// String names the identity in messages: its public key, shortened.
func (id Identity) String() string { return voterName(id.pub) }

// token is the identity as a bucket key token: the public key (the
// embedded server lets a key write only under its own), or, for the shared
// credential, "s" and a hash of the worker's label, so that workers of
// the shared credential keep apart results under their own keys.
func (id Identity) token(label string) string {
	if id.pub != "" {
		return id.pub
	}
	return "s" + workerID(label)
}

// sign signs data with the identity's key; "" for the shared credential.
func (id Identity) sign(data []byte) (string, error) {
	if id.kp == nil {
		return "", nil
	}
	sig, err := id.kp.Sign(data)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(sig), nil
}

// verify checks that sig is pub's signature of data.
func verify(pub string, data []byte, sig string) error {
	if !nkeys.IsValidPublicUserKey(pub) {
		return errors.New("its voter is not a public user NKey")
	}
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return errors.New("its signature is not base64")
	}
	kp, err := nkeys.FromPublicKey(pub)
	if err != nil {
		return err
	}
	if kp.Verify(data, raw) != nil {
		return errors.New("its signature is not its voter's")
	}
	return nil
}

// sharedVoter is the voter of every result without a signature.
const sharedVoter = "shared"

// voterName shortens a voter for messages: "UABCD…WXYZ", or "the shared
// credential".
func voterName(v string) string {
	switch {
	case v == "" || v == sharedVoter:
		return "the shared credential"
	case len(v) > 12:
		return v[:6] + "…" + v[len(v)-4:]
	}
	return v
}

// ReadVoters reads public user NKeys, one per line (blank lines and lines
// starting with # are skipped): the voters of a run, who are also the
// users an embedded server admits.
func ReadVoters(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("NKeys file: %w", err)
	}
	var keys []string
	seen := map[string]bool{}
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !nkeys.IsValidPublicUserKey(line) {
			return nil, fmt.Errorf("%s:%d: %q is not a public user NKey (it starts with U; nk -gen user -pubout makes one)", path, i+1, clip(line))
		}
		if !seen[line] {
			seen[line] = true
			keys = append(keys, line)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("NKeys file %s lists no key", path)
	}
	return keys, nil
}
