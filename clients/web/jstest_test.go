package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestNodeModules runs the client's JavaScript tests, jstest/*.test.mjs
// (patch.js, conn.js's patches, the routes, the pacer, i18n, the clocks,
// bot names, the stored seats, the boards' grid.js and every game's pure
// _state.js module), with node's own test runner when node is on PATH: one subtest per file, each of which must run every test it
// has and pass them all. For the files that read CHAGUAN_PATCH_FIXTURE
// it first records, from a real server, what a patch client and a full
// client watching the same Gong Zhu table of bots are sent, change by
// change; conn.test.mjs then checks that conn.js turns every patch into
// exactly the full client's state.
func TestNodeModules(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the JavaScript tests in clients/web/jstest did not run")
	}
	files, err := filepath.Glob(filepath.Join("jstest", "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no jstest/*.test.mjs (%v)", err)
	}
	dir, fixture := t.TempDir(), ""
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			env := os.Environ()
			if bytes.Contains(src, []byte("CHAGUAN_PATCH_FIXTURE")) {
				if fixture == "" {
					path := filepath.Join(dir, "gongzhu-messages.json")
					recordPatchFixture(t, path, 300)
					fixture = path
				}
				env = append(env, "CHAGUAN_PATCH_FIXTURE="+fixture)
			}
			runNodeTests(t, node, f, env)
		})
	}
}

// runNodeTests runs one test file with node --test and fails unless node
// ran at least one test and every test passed (none skipped or cancelled).
func runNodeTests(t *testing.T, node, file string, env []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=tap", file)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %s: %v\n%s", file, err, out)
	}
	counts := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		var name string
		var n int
		if _, err := fmt.Sscanf(line, "# %s %d", &name, &n); err == nil {
			counts[name] = n
		}
		// A file without tests is reported as one test named after it.
		if strings.HasPrefix(line, "ok ") && strings.HasSuffix(line, filepath.Base(file)) {
			t.Fatalf("node --test %s: the file has no tests:\n%s", file, out)
		}
	}
	if counts["tests"] == 0 || counts["pass"] != counts["tests"] || counts["fail"] != 0 || counts["skipped"] != 0 || counts["cancelled"] != 0 || counts["todo"] != 0 {
		t.Fatalf("node --test %s: not every test ran and passed %v:\n%s", file, counts, out)
	}
	t.Logf("%s: %d tests passed", file, counts["pass"])
}

// recordPatchFixture writes to path n pairs [patch client's message, full
// client's message], one pair per change of a Gong Zhu table of four bots
// both watch, matched by stateID (every change there is a move).
func recordPatchFixture(t *testing.T, path string, n int) {
	t.Helper()
	srv := servertest.Start(t, servertest.Options{Games: games.NewRegistry(gongzhu.Game), BotDelay: 5 * time.Millisecond,
		WS: server.WSConfig{SendBuffer: 4096}})
	id := browsertest.CreateGongzhuBotTable(t, srv.URL)
	// The full client's first state comes before the patch client says
	// hello, so the full client is never behind it: bots start to play when
	// the first viewer connects, and the second hello may be answered later.
	full := browsertest.DialGongzhuWS(t, srv.URL, id, `{"type":"hello"}`)
	fullMsg := browsertest.ReadWS(t, full)
	patched := browsertest.DialGongzhuWS(t, srv.URL, id, `{"type":"hello","patches":true}`)
	sid := func(msg []byte) int64 {
		var h struct {
			StateID int64 `json:"stateID"`
		}
		if err := json.Unmarshal(msg, &h); err != nil {
			t.Fatalf("bad message %s", msg)
		}
		return h.StateID
	}
	var pairs [][2]string
	for len(pairs) < n {
		p := browsertest.ReadWS(t, patched)
		for sid(fullMsg) < sid(p) {
			fullMsg = browsertest.ReadWS(t, full)
		}
		if sid(fullMsg) != sid(p) {
			t.Fatalf("the full client went from before %d to %d", sid(p), sid(fullMsg))
		}
		pairs = append(pairs, [2]string{string(p), string(fullMsg)})
	}
	b, _ := json.Marshal(pairs)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
