package weiqi

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestSGFRoundTrip(t *testing.T) {
	for seed := uint64(0); seed < 12; seed++ {
		size := []int{9, 13, 19}[seed%3]
		s := randomGame(t, size, size*size, seed)
		data := s.SGF(RecordMeta{Black: "Ann [B]", White: `Bo\b`, Date: "2026-12-02"})
		nodes, err := ParseSGF(data)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		root := nodes[0]
		if root["PB"][0] != "Ann [B]" || root["PW"][0] != `Bo\b` || root["GM"][0] != "1" || root["FF"][0] != "4" || root["RU"][0] != "Chinese" || root["KM"][0] != "7.5" {
			t.Fatalf("root %v", root)
		}
		back, err := FromSGF(data)
		if err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
		if !slices.Equal(back.board.pts, s.board.pts) || back.captured != s.captured || !slices.Equal(back.moves, s.moves) {
			t.Fatalf("seed %d: replayed position differs", seed)
		}
	}
}

func TestSGFResult(t *testing.T) {
	s := moves(t, newGame(t, 9), "E5", "pass")
	s = do(t, s, 0, moveResign)
	out, err := rules.Export(s, "sgf", games.RecordMeta{Players: []string{"Ann", "Bot (normal)"}})
	if err != nil || !bytes.Contains(out.Data, []byte("RE[W+R]")) || !bytes.Contains(out.Data, []byte(";B[ee]")) || !bytes.Contains(out.Data, []byte(";W[]")) || !bytes.Contains(out.Data, []byte("SZ[9]")) {
		t.Fatalf("export: %v\n%s", err, out.Data)
	}
	if _, err := rules.Export(s, "pdf", games.RecordMeta{}); err != games.ErrNoExport {
		t.Fatalf("pdf: %v", err)
	}
}

func TestParseSGF(t *testing.T) {
	nodes, err := ParseSGF([]byte("  (;GM[1]SZ[9]C[a \\] b\\\nc]AB[aa][bb](;B[cc];W[dd])(;B[ee]))"))
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 3 || nodes[0]["C"][0] != "a ] bc" || len(nodes[0]["AB"]) != 2 || nodes[1]["B"][0] != "cc" || nodes[2]["W"][0] != "dd" {
		t.Fatalf("nodes %v", nodes)
	}
	for _, bad := range []string{"", "x", "(", "(;B[aa]", "(;B[aa)", "(;B)", "(;b[aa])", ";B[aa]", "(;B[aa](;W[bb])", "(;B[aa]x)", strings.Repeat("(", 200) + ";)"} {
		if _, err := ParseSGF([]byte(bad)); err == nil {
			t.Errorf("ParseSGF(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"(;SZ[10])", "(;SZ[9];W[aa])", "(;SZ[9];B[zz])", "(;SZ[9];B[aa];W[aa])", "(;SZ[x])", "(;KM[abc])"} {
		if _, err := FromSGF([]byte(bad)); err == nil {
			t.Errorf("FromSGF(%q) accepted", bad)
		}
	}
}

func FuzzParseSGF(f *testing.F) {
	f.Add([]byte("(;FF[4]GM[1]SZ[9]KM[7.5];B[ee];W[];B[dd])"))
	f.Add([]byte("(;C[\\]](;B[aa])(;W[bb]))"))
	f.Add([]byte("((((;"))
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := ParseSGF(data)
		if err == nil && len(nodes) == 0 {
			t.Fatal("no error and no node")
		}
		s, err := FromSGF(data)
		if err != nil {
			return
		}
		// A record that replays writes an SGF that replays the same.
		back, err := FromSGF(s.SGF(RecordMeta{}))
		if err != nil || !slices.Equal(back.board.pts, s.board.pts) {
			t.Fatalf("rewrite: %v", err)
		}
	})
}
