package seal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

type record struct {
	N     int      `json:"n"`
	Names []string `json:"names"`
}

func mustKey(t *testing.T) *Key {
	t.Helper()
	k, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSealOpen(t *testing.T) {
	k := mustKey(t)
	in := record{N: 28, Names: []string{"a", `quote " and ,"seal":"`}}
	line, err := k.Seal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out record
	if err := k.Open(append(line, '\n'), &out); err != nil {
		t.Fatalf("Open(%s): %v", line, err)
	}
	if out.N != 28 || len(out.Names) != 2 || out.Names[1] != in.Names[1] {
		t.Fatalf("Open = %+v, want %+v", out, in)
	}
}

// TestOpenRefuses is the forgeries and accidents a seal must catch: each
// is refused with the error that says which.
func TestOpenRefuses(t *testing.T) {
	k, other := mustKey(t), mustKey(t)
	good, _ := k.Seal(record{N: 14})
	byOther, _ := other.Seal(record{N: 28})
	edited := bytes.Replace(good, []byte(`"n":14`), []byte(`"n":28`), 1)
	// An edit resealed with a key of the forger's own, the ID copied
	// from the genuine seal.
	resealed := append([]byte(nil), byOther...)
	copy(resealed[bytes.LastIndex(resealed, []byte("."))-12:], k.ID())
	tests := []struct {
		name string
		data string
		want error
	}{
		{"edited", string(edited), ErrBroken},
		{"resealed with another key under this key's ID", string(resealed), ErrBroken},
		{"other key", string(byOther), &KeyError{}},
		{"unsealed", `{"n":14}`, ErrUnsealed},
		{"old checksum", `{"n":14,"sha256":"00"}`, ErrUnsealed},
		{"seal not hex", `{"n":14,"seal":"` + k.ID() + `.zz"}`, ErrBroken},
		{"seal cut", string(good[:len(good)-10]) + `"}`, ErrBroken},
		{"not JSON", `{"n":14,"seal":"x"`, nil},
		{"empty", ``, nil},
	}
	for _, tc := range tests {
		var out record
		err := k.Open([]byte(tc.data), &out)
		switch want := tc.want.(type) {
		case nil:
			if err == nil {
				t.Errorf("%s: Open accepted %q", tc.name, tc.data)
			}
		case *KeyError:
			var ke *KeyError
			if !errors.As(err, &ke) || ke.Sealed != other.ID() {
				t.Errorf("%s: Open = %v, want a KeyError naming %s", tc.name, err, other.ID())
			}
		default:
			if !errors.Is(err, want) {
				t.Errorf("%s: Open = %v, want %v", tc.name, err, want)
			}
		}
	}
}

func TestOpenRefusesUnknownMembers(t *testing.T) {
	k := mustKey(t)
	line, _ := k.Seal(map[string]any{"n": 14, "extra": true})
	var out record
	if err := k.Open(line, &out); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("Open = %v, want an error naming the unknown member", err)
	}
}

func TestKeyFiles(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	k, created, err := Default(context.Background())
	if err != nil || !created {
		t.Fatalf("Default() = %v, created %v", err, created)
	}
	path, _ := DefaultPath()
	if k.Path() != path || !strings.HasPrefix(path, dir) {
		t.Fatalf("key at %s, want %s under %s", k.Path(), path, dir)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v (%v), want 0600", fi.Mode(), err)
	}
	again, created, err := Default(context.Background())
	if err != nil || created || again.ID() != k.ID() {
		t.Fatalf("second Default() = %v (created %v, id %s), want the same key %s", err, created, again.ID(), k.ID())
	}
	if _, err := CreateFile(path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("CreateFile over an existing key = %v, want ErrExist", err)
	}
	bad := filepath.Join(dir, "bad.key")
	os.WriteFile(bad, []byte("not a key\n"), 0o600)
	if _, err := ReadFile(context.Background(), bad); err == nil || !strings.Contains(err.Error(), bad+":1") {
		t.Fatalf("ReadFile(context.Background(), bad) = %v, want an error naming %s:1", err, bad)
	}
}

// TestDefaultRace has several processes' worth of first uses at once: all
// must end with the one key that was written.
func TestDefaultRace(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	var wg sync.WaitGroup
	ids := make([]string, 8)
	errs := make([]error, 8)
	for i := range ids {
		wg.Go(func() {
			k, _, err := Default(context.Background())
			if err == nil {
				ids[i] = k.ID()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Fatalf("Default() #%d = %s, %v; #0 = %s", i, ids[i], errs[i], ids[0])
		}
	}
}

func FuzzOpen(f *testing.F) {
	k := fromBytes(bytes.Repeat([]byte{7}, keyBytes), "")
	good, _ := k.Seal(record{N: 8, Names: []string{"x"}})
	f.Add(good)
	f.Add([]byte(`{"n":1,"seal":"` + k.ID() + `.00"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out record
		if err := k.Open(data, &out); err == nil {
			// Whatever opens must be what the key sealed.
			again, err := k.Seal(out)
			if err != nil {
				t.Fatal(err)
			}
			var back record
			if err := k.Open(again, &back); err != nil {
				t.Fatalf("resealed object does not open: %v", err)
			}
		}
	})
}

func ExampleKey_Seal() {
	k, _ := New()
	line, _ := k.Seal(struct {
		N int `json:"n"`
	}{28})
	var back struct {
		N int `json:"n"`
	}
	err := k.Open(line, &back)
	fmt.Println(back.N, err, strings.HasPrefix(string(line), `{"n":28,"seal":"`+k.ID()+`.`))
	// Output: 28 <nil> true
}

// TestReadFileRefuses: a key file is read within 4 KiB (a 2 GB file was
// read whole, /dev/zero until memory ran out), and a key of the user's
// that others may read is refused with the chmod that fixes it.
func TestReadFileRefuses(t *testing.T) {
	dir := t.TempDir()
	k, err := CreateFile(filepath.Join(dir, "seal.key"))
	if err != nil {
		t.Fatal(err)
	}
	large := filepath.Join(dir, "large.key")
	if err := os.WriteFile(large, bytes.Repeat([]byte("0"), 5000), 0o600); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(dir, "open.key")
	data, _ := os.ReadFile(k.Path())
	if err := os.WriteFile(open, data, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(open, 0o644) // past the umask
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "seal key: /dev/zero is larger than 4 KiB, the most a seal key can be"},
		{large, large + " is larger than 4 KiB, the most a seal key can be"},
		{open, "seal key " + open + " can be read or written by others (mode 0644): a key must be private; run chmod 600 " + open},
		{dir, dir + " is a directory"},
	} {
		if _, err := ReadFile(context.Background(), tc.path); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadFile(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if os.Getuid() == 0 {
		// A file of another owner is that owner's choice.
		os.Chown(open, 12345, 12345)
		if got, err := ReadFile(context.Background(), open); err != nil || got.ID() != k.ID() {
			t.Errorf("a key of mode 0644 owned by another user: %v, %v; want the key", got, err)
		}
	}
	if got, err := ReadFile(context.Background(), k.Path()); err != nil || got.ID() != k.ID() {
		t.Errorf("ReadFile of the key made: %v, %v", got, err)
	}
}
