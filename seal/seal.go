package seal

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nqueens/nqueens/i18n"
	"github.com/nqueens/nqueens/internal/bounded"
)

// keyBytes is the size of a key: SHA-256's output size, the key length RFC
// 2104 recommends for HMAC-SHA-256.
const keyBytes = 32

// Key is a secret key that seals and opens JSON objects. Make one with
// [New], [ReadFile], [CreateFile] or [Default].
type Key struct {
	secret []byte
	id     string
	path   string
}

// New returns a fresh random key held in memory only.
func New() (*Key, error) {
	b := make([]byte, keyBytes)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	return fromBytes(b, ""), nil
}

// FromSecret returns the key of the given 32 secret bytes, held in memory
// only: tests use fixed keys, and a program may keep its key elsewhere.
func FromSecret(b []byte) (*Key, error) {
	if len(b) != keyBytes {
		return nil, i18n.NewError("error.seal.size", i18n.Args{"Want": keyBytes, "Got": len(b)})
	}
	return fromBytes(bytes.Clone(b), ""), nil
}

func fromBytes(b []byte, path string) *Key {
	m := hmac.New(sha256.New, b)
	m.Write([]byte("nqueens seal key id"))
	return &Key{secret: b, id: hex.EncodeToString(m.Sum(nil)[:6]), path: path}
}

// ID names the key in seals and messages: 12 hex digits derived from it by
// HMAC, which say nothing about the key itself.
func (k *Key) ID() string { return k.id }

// Path is the file the key was read from, or "" for a key made by [New].
func (k *Key) Path() string { return k.path }

// String names the key for messages: its ID and its file.
func (k *Key) String() string { return k.Localize(i18n.For(i18n.English)) }

// Localize names the key in p's language.
func (k *Key) Localize(p *i18n.Printer) string {
	if k.path == "" {
		return p.T("error.seal.keyname", i18n.Args{"ID": k.id})
	}
	return p.T("error.seal.keyname.file", i18n.Args{"ID": k.id, "Path": k.path})
}

// DefaultPath is where [Default] keeps the user's key: nqueens/seal.key in
// the user's configuration folder ([os.UserConfigDir]).
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", i18n.NewError("error.seal.noconfig", i18n.Args{"Err": err, "Flag": "--key-file"})
	}
	return filepath.Join(dir, "nqueens", "seal.key"), nil
}

// Default returns the user's key from [DefaultPath], creating it (mode
// 0600, in a folder of mode 0700) on first use; created says it was. ctx
// bounds the read as in [ReadFile].
func Default(ctx context.Context) (k *Key, created bool, err error) {
	path, err := DefaultPath()
	if err != nil {
		return nil, false, err
	}
	k, err = ReadFile(ctx, path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, i18n.Wrap(err, "error.seal.keyfile", nil)
	}
	k, err = CreateFile(path)
	if errors.Is(err, fs.ErrExist) {
		// Another process made it first: use theirs.
		k, err = ReadFile(ctx, path)
		return k, false, err
	}
	return k, err == nil, err
}

// CreateFile makes a new random key and writes it to path with mode 0600.
// It never replaces a file: the key appears whole, or not at all, and an
// existing path is an error wrapping [fs.ErrExist].
func CreateFile(path string) (*Key, error) {
	k, err := New()
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".seal.key.tmp*") // mode 0600
	if err != nil {
		return nil, i18n.Wrap(err, "error.seal.keyfile", nil)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(hex.EncodeToString(k.secret) + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, i18n.Wrap(err, "error.seal.keyfile.at", i18n.Args{"Path": path})
	}
	// A hard link is created only where no file is, and whole.
	if err := os.Link(tmp.Name(), path); err != nil {
		return nil, i18n.Wrap(err, "error.seal.keyfile", nil)
	}
	k.path = path
	return k, nil
}

// maxKeyFile bounds a key file: a key is one line of 64 hex digits.
const maxKeyFile = 4 << 10

// ReadFile reads a key file: 64 hex digits (32 bytes) on its first line.
// A file of the user's that others may read or write is refused, as ssh
// refuses such a private key: the key is a secret (chmod 600 fixes it). A
// file over 4 KiB is refused, and a read that waits (a FIFO, a pipe)
// stops when ctx ends.
func ReadFile(ctx context.Context, path string) (*Key, error) {
	f, err := bounded.Open(ctx, path)
	if err != nil {
		return nil, i18n.Wrap(err, "error.seal.keyfile", nil)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && ownOpenFile(fi) {
		return nil, i18n.NewError("error.seal.keyfile.mode", i18n.Args{"Path": path, "Mode": fmt.Sprintf("%04o", fi.Mode().Perm())})
	}
	b, err := io.ReadAll(bounded.NewReader(ctx, f, path, "error.toolarge.sealkey", maxKeyFile))
	if err != nil {
		return nil, i18n.Wrap(err, "error.seal.keyfile", nil)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	secret, err := hex.DecodeString(strings.TrimSpace(line))
	if err != nil || len(secret) != keyBytes {
		return nil, i18n.NewError("error.seal.keyfile.digits", i18n.Args{"Path": path, "Digits": 2 * keyBytes})
	}
	return fromBytes(secret, path), nil
}

// The seal member ends every sealed object: "seal":"<key id>.<HMAC>".
const sealMember = `,"seal":"`

// Seal returns the JSON encoding of v, which must encode as a non-empty
// object, with a last member "seal" holding the key's ID and the
// HMAC-SHA-256 of the object's encoding without that member. Cost
// O(size of v's encoding).
func (k *Key) Seal(v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(body) < 3 || body[0] != '{' || body[len(body)-1] != '}' {
		return nil, fmt.Errorf("seal: %T does not encode as a non-empty JSON object", v)
	}
	out := make([]byte, 0, len(body)+len(sealMember)+k.sealLen()+2)
	out = append(out, body[:len(body)-1]...)
	out = append(out, sealMember...)
	out = append(out, k.id...)
	out = append(out, '.')
	out = hex.AppendEncode(out, k.mac(body))
	return append(out, '"', '}'), nil
}

func (k *Key) sealLen() int { return len(k.id) + 1 + 2*sha256.Size }

func (k *Key) mac(body []byte) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write(body)
	return m.Sum(nil)
}

// Errors of [Key.Open].
var (
	// ErrMalformed: the data is not a JSON object, or was cut short.
	ErrMalformed error = i18n.NewError("error.seal.malformed", nil)
	// ErrUnsealed: the object has no seal, as files of nqueens before
	// keyed seals, or not made by nqueens at all.
	ErrUnsealed error = i18n.NewError("error.seal.unsealed", nil)
	// ErrBroken: the seal does not match the content under the key in
	// use: the object was damaged, or edited by someone without the key.
	ErrBroken error = i18n.NewError("error.seal.broken", nil)
)

// KeyError reports an object sealed under another key than the one in use.
type KeyError struct {
	Sealed string // the ID the seal names
	InUse  *Key
}

func (e *KeyError) Error() string { return e.Localize(i18n.For(i18n.English)) }

// Localize is the error in p's language.
func (e *KeyError) Localize(p *i18n.Printer) string {
	return p.T("error.seal.key", i18n.Args{"Sealed": e.Sealed, "InUse": e.InUse, "Flag": "--key-file"})
}

// Open checks the seal of data, one object written by [Key.Seal] (white
// space around it is allowed), and decodes the object without its seal
// into v, refusing members v does not have. The errors are [ErrMalformed],
// [ErrUnsealed], [ErrBroken], a [*KeyError], or an error decoding what the
// key's holder sealed. Cost O(len(data)).
func (k *Key) Open(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	at := bytes.LastIndex(data, []byte(sealMember))
	if at < 0 || at+len(sealMember) > len(data)-2 || !bytes.HasSuffix(data, []byte(`"}`)) {
		if json.Valid(data) {
			return ErrUnsealed
		}
		return ErrMalformed
	}
	seal := string(data[at+len(sealMember) : len(data)-2])
	id, sum, ok := strings.Cut(seal, ".")
	mac, err := hex.DecodeString(sum)
	if !ok || err != nil || len(mac) != sha256.Size {
		return ErrBroken
	}
	body := make([]byte, 0, at+1)
	body = append(append(body, data[:at]...), '}')
	switch {
	case hmac.Equal(mac, k.mac(body)) && id == k.id:
	case id != k.id && len(id) == len(k.id):
		return &KeyError{Sealed: id, InUse: k}
	default:
		return ErrBroken
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return i18n.NewError("error.seal.trailing", nil)
	}
	return nil
}
