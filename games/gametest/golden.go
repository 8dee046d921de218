package gametest

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update is the -update flag of every game's tests: it rewrites golden
// files instead of comparing with them.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Golden compares v's indented JSON with testdata/name (a trailing newline
// added), or rewrites the file when the test runs with -update. Read the
// diff after a deliberate change of a view.
func Golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (run with -update to rewrite it, then read the diff):\n%s", path, got)
	}
}
