package rooms

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/wI2L/jsondiff"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/protocol"
)

// The patch benchmarks play a Gong Zhu match (four easy bots) and time
// the messages of benchMoves moves to its five distinct viewers (four
// seats, the spectators): whole states as a full client gets them,
// patches, and patches as github.com/wI2L/jsondiff makes them. Each runs
// from the start of a match (from=0: rounds 1 to 8, views of 1 to 5 KB)
// and deep in one (from=5200: round 101, the history at its cap of 100
// rounds, views of about 21 KB), and reports the bytes a viewer gets per
// move and the process's CPU time per move besides ns/op. Run them with
//
//	go test ./rooms/ -run '^$' -bench 'Gongzhu(Full|Patch)' -benchtime 400x
const benchMoves = 400

var benchDepths = []int{0, 5200}

// processCPU is the CPU time the process has used so far: on a machine
// shared with other work, a steadier figure than ns/op (wall time).
func processCPU(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per op since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
}

var (
	benchMu     sync.Mutex
	benchFrames = map[int][]*frame{} // by depth: benchMoves+1 frames, every view encoded
)

// benchViewers are the distinct viewers of a four-seat table.
var benchViewers = []int{0, 1, 2, 3, games.Spectator}

// gongzhuFrames returns the frames of moves depth to depth+benchMoves.
func gongzhuFrames(tb testing.TB, depth int) []*frame {
	benchMu.Lock()
	defer benchMu.Unlock()
	if fs, ok := benchFrames[depth]; ok {
		return fs
	}
	r := testRoom(tb, gongzhu.Game, 4, 17)
	rng := rand.New(rand.NewPCG(17, 18))
	var fs []*frame
	for i := 0; i < depth+benchMoves; i++ {
		if i >= depth {
			fs = append(fs, r.frame())
		}
		r.easyStep(tb, rng)
	}
	fs = append(fs, r.frame())
	for _, f := range fs {
		for _, v := range benchViewers {
			f.g(v)
		}
	}
	benchFrames[depth] = fs
	return fs
}

// eachDepth runs bench at each of benchDepths.
func eachDepth(b *testing.B, bench func(b *testing.B, frames []*frame)) {
	for _, depth := range benchDepths {
		b.Run("from="+strconv.Itoa(depth), func(b *testing.B) { bench(b, gongzhuFrames(b, depth)) })
	}
}

// BenchmarkGongzhuFull is each move's five state messages, their views
// already encoded (as every message needs them).
func BenchmarkGongzhuFull(b *testing.B) {
	eachDepth(b, func(b *testing.B, frames []*frame) {
		var bytes int64
		b.ReportAllocs()
		b.ResetTimer()
		cpu := processCPU(b)
		for i := 0; i < b.N; i++ {
			f := frames[1+i%benchMoves]
			for _, v := range benchViewers {
				bytes += int64(len(f.encode(v, nil)))
			}
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(bytes)/float64(b.N*len(benchViewers)), "B/viewer/move")
	})
}

// BenchmarkGongzhuPatch is each move's five patch messages from the
// previous move's views: the diff of the shared parts once, of each view,
// and each message's encoding (or, when a patch would be no shorter, the
// state message).
func BenchmarkGongzhuPatch(b *testing.B) {
	eachDepth(b, func(b *testing.B, frames []*frame) {
		for _, f := range frames {
			f.tops = nil // as new: each view split once, as in a room
		}
		var bytes, states int64
		b.ReportAllocs()
		b.ResetTimer()
		cpu := processCPU(b)
		for i := 0; i < b.N; i++ {
			from, to := frames[i%benchMoves], frames[1+i%benchMoves]
			p := patchSet{to: to}
			for _, v := range benchViewers {
				m := p.message(sentView{f: from, seat: v}, v)
				if !m.ok {
					states++
					bytes += int64(len(to.encode(v, nil)))
					continue
				}
				bytes += int64(len(m.noAck(p.to)))
			}
		}
		reportCPU(b, cpu)
		b.ReportMetric(float64(bytes)/float64(b.N*len(benchViewers)), "B/viewer/move")
		b.ReportMetric(float64(states)/float64(b.N*len(benchViewers)), "states/viewer/move")
	})
}

// BenchmarkGongzhuPatchJSONDiff is BenchmarkGongzhuPatch's work done by
// github.com/wI2L/jsondiff (CompareJSON: each document decoded into Go
// values, compared, the patch marshalled), on G per view and on ctx,
// players and log once, as patchSet divides it. LCS is jsondiff's option
// for arrays whose entries shift (the log's window of 20).
func BenchmarkGongzhuPatchJSONDiff(b *testing.B) {
	for _, c := range []struct {
		name string
		opts []jsondiff.Option
	}{{"default", nil}, {"LCS", []jsondiff.Option{jsondiff.LCS()}}} {
		b.Run(c.name, func(b *testing.B) {
			eachDepth(b, func(b *testing.B, frames []*frame) {
				shared := func(f *frame) []byte {
					return []byte(`{"ctx":` + string(f.ctx) + `,"players":` + string(f.players) + `,"log":` + string(f.log) + `}`)
				}
				var bytes int64
				b.ReportAllocs()
				b.ResetTimer()
				cpu := processCPU(b)
				for i := 0; i < b.N; i++ {
					from, to := frames[i%benchMoves], frames[1+i%benchMoves]
					sp, err := jsondiff.CompareJSON(shared(from), shared(to), c.opts...)
					if err != nil {
						b.Fatal(err)
					}
					sj, _ := json.Marshal(sp)
					for _, v := range benchViewers {
						gp, err := jsondiff.CompareJSON(from.g(v), to.g(v), c.opts...)
						if err != nil {
							b.Fatal(err)
						}
						gj, _ := json.Marshal(gp)
						// The message: its head, both lists of operations,
						// and "/G" before each of G's paths.
						bytes += int64(len(`{"type":"patch","stateID":5201,"base":5200,"ops":}`) + len(sj) + len(gj) + 2*len(gp))
					}
				}
				reportCPU(b, cpu)
				b.ReportMetric(float64(bytes)/float64(b.N*len(benchViewers)), "B/viewer/move")
			})
		})
	}
}

// TestPatchJSONDiffAgrees checks the benchmarks' premise on a short
// match: jsondiff's patches and ours, applied, both give the new views.
func TestPatchJSONDiffAgrees(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 3)
	rng := rand.New(rand.NewPCG(3, 3))
	prev := r.frame()
	for range 60 {
		r.easyStep(t, rng)
		f := r.frame()
		for _, v := range benchViewers {
			var d differ
			if err := d.diff(prev.g(v), f.g(v)); err != nil {
				t.Fatal(err)
			}
			theirs, err := jsondiff.CompareJSON(prev.g(v), f.g(v))
			if err != nil {
				t.Fatal(err)
			}
			tj, _ := json.Marshal(theirs)
			for _, ops := range [][]byte{append(append([]byte("["), d.out...), ']'), tj} {
				var p []protocol.PatchOp
				if err := json.Unmarshal(ops, &p); err != nil {
					t.Fatal(err)
				}
				doc, _ := protocol.DecodeDoc(prev.g(v))
				want, _ := protocol.DecodeDoc(f.g(v))
				got, err := protocol.ApplyPatch(doc, p)
				if err != nil {
					t.Fatal(err)
				}
				if string(mustMarshal(got)) != string(mustMarshal(want)) {
					t.Fatalf("viewer %d: a patch does not give the view: %s", v, ops)
				}
			}
		}
		prev = f
	}
}

// countSink counts the bytes it is sent.
type countSink struct{ n *int64 }

func (s countSink) Send(msg []byte, _ Kind) bool { *s.n += int64(len(msg)); return true }
func (countSink) Close()                         {}

// BenchmarkGongzhuBroadcast is a room's whole broadcast of one move to
// five viewers (four seats, a spectator), the views' encoding included
// (the socket writes are not): with full states, and with patches.
func BenchmarkGongzhuBroadcast(b *testing.B) {
	for _, patches := range []bool{false, true} {
		name := map[bool]string{false: "full", true: "patch"}[patches]
		b.Run(name, func(b *testing.B) {
			eachDepth(b, func(b *testing.B, frames []*frame) {
				r := testRoom(b, gongzhu.Game, 4, 17)
				r.rec, r.st = frames[0].rec, frames[0].st
				var n int64
				for _, seat := range benchViewers {
					v := &Viewer{r: r, sink: countSink{&n}, seat: seat, patches: patches}
					r.viewers[v] = struct{}{}
					r.sendState(v, nil)
				}
				n = 0
				b.ReportAllocs()
				b.ResetTimer()
				cpu := processCPU(b)
				for i := 0; i < b.N; i++ {
					f := frames[1+i%benchMoves]
					r.rec, r.st = f.rec, f.st
					r.broadcast(nil, nil)
				}
				reportCPU(b, cpu)
				b.ReportMetric(float64(n)/float64(b.N*len(benchViewers)), "B/viewer/move")
			})
		})
	}
}

// patchBytes is the bytes per viewer per move of the patch messages of
// frames[from] to frames[to] for the five viewers, each patch from the
// previous move's view, as BenchmarkGongzhuPatch counts them.
func patchBytes(t testing.TB, frames []*frame, from, to int) float64 {
	var n int64
	for i := from; i < to; i++ {
		p := patchSet{to: frames[i+1]}
		for _, v := range benchViewers {
			m := p.message(sentView{f: frames[i], seat: v}, v)
			if !m.ok {
				n += int64(len(frames[i+1].encode(v, nil)))
				continue
			}
			n += int64(len(m.noAck(p.to)))
		}
	}
	return float64(n) / float64((to-from)*len(benchViewers))
}

// TestPatchBytesFlatWithDepth: a viewer of a match 5,000 moves deep reads
// as many bytes per move as one of a new match, though its whole view is
// four times larger: over a whole round (52 moves, its end included:
// round 2 against round 101) and over the first 50 moves of a match
// against 50 moves from move 5,000 (no round ends in either), within 10 %:
// what grows is the counters' digits (stateID, base, the turns in ctx and
// the log: one or two at the start, four deep), some 20 bytes of a patch
// of about 400. Logged with -v, as docs/performance.md quotes them.
func TestPatchBytesFlatWithDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 5,600 moves")
	}
	shallow, deep := gongzhuFrames(t, 0), gongzhuFrames(t, 5200)
	round2, round101 := patchBytes(t, shallow, 52, 104), patchBytes(t, deep, 0, 52)
	// From move 5,000: frames of depth 5200 start there; the window of
	// moves 5,000-5,049 is built from a room played that far.
	first50 := patchBytes(t, shallow, 0, 50)
	at5000 := patchBytes(t, gongzhuFramesAt(t, 4992, 51), 0, 50)
	t.Logf("bytes per viewer per move: round 2 %.0f, round 101 %.0f; moves 1-50 %.0f, moves 4,993-5,042 %.0f; whole view at move 0 %d B, at 5,200 %d B",
		round2, round101, first50, at5000, len(shallow[0].g(0)), len(deep[0].g(0)))
	if round101 > round2*1.1 || at5000 > first50*1.1 {
		t.Fatalf("a deep match's viewer reads more per move: round 2 %.0f, round 101 %.0f; first 50 %.0f, from 4,993 %.0f", round2, round101, first50, at5000)
	}
}

// gongzhuFramesAt is gongzhuFrames for n frames from move depth (not
// kept).
func gongzhuFramesAt(tb testing.TB, depth, n int) []*frame {
	r := testRoom(tb, gongzhu.Game, 4, 17)
	rng := rand.New(rand.NewPCG(17, 18))
	var fs []*frame
	for i := 0; i < depth+n; i++ {
		if i >= depth {
			fs = append(fs, r.frame())
		}
		r.easyStep(tb, rng)
	}
	return append(fs, r.frame())
}

// TestPatchBytesByPart logs where the bytes of the Gong Zhu patches go:
// each operation of each message of the benchmark's moves to five
// viewers, counted against the part of the view it touches, and the
// envelope (the message without its operations). docs/performance.md
// quotes it; run with -v.
func TestPatchBytesByPart(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 5,600 moves")
	}
	part := func(path string) string {
		for _, p := range []struct{ prefix, name string }{
			{"/log", "log"}, {"/ctx", "ctx"}, {"/G/tricks", "G.tricks"}, {"/G/trick", "G.trick"},
			{"/G/players", "G.players"},
			{"/G/pointCards", "G.pointCards, G.roundScores"}, {"/G/roundScores", "G.pointCards, G.roundScores"},
		} {
			if strings.HasPrefix(path, p.prefix) {
				return p.name
			}
		}
		return "the round's end (lastRound, history, scoreboard, totals, round; G once)"
	}
	for _, depth := range benchDepths {
		frames := gongzhuFrames(t, depth)
		by := map[string]int{}
		var total, msgs int
		for i := range benchMoves {
			p := patchSet{to: frames[i+1]}
			for _, v := range benchViewers {
				m := p.message(sentView{f: frames[i], seat: v}, v)
				if !m.ok {
					t.Fatalf("move %d viewer %d: a state, not a patch", depth+i, v)
				}
				var msg struct{ Ops []json.RawMessage }
				if err := json.Unmarshal(m.noAck(p.to), &msg); err != nil {
					t.Fatal(err)
				}
				ops := 0
				for _, o := range msg.Ops {
					var op protocol.PatchOp
					if err := json.Unmarshal(o, &op); err != nil {
						t.Fatal(err)
					}
					by[part(op.Path)] += len(o) + 1
					ops += len(o) + 1
				}
				by["envelope"] += len(m.noAck(p.to)) - ops
				total += len(m.noAck(p.to))
				msgs++
			}
		}
		names := slices.Collect(maps.Keys(by))
		slices.SortFunc(names, func(a, b string) int { return by[b] - by[a] })
		var out strings.Builder
		for _, n := range names {
			fmt.Fprintf(&out, "\n  %-72s %6.1f", n, float64(by[n])/float64(msgs))
		}
		t.Logf("moves %d-%d: %.1f bytes per viewer per move:%s", depth+1, depth+benchMoves, float64(total)/float64(msgs), out.String())
	}
}
