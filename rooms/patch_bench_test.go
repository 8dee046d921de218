package rooms

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
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
		before := r.st.Status()
		seat := before.Current
		name, args, err := r.st.Bot("easy", seat, rng)
		if err != nil {
			tb.Fatal(err)
		}
		next, err := r.st.Apply(seat, name, args)
		if err != nil {
			tb.Fatal(err)
		}
		nr, err := r.successor(seat, name, args, before, next, false)
		if err != nil {
			tb.Fatal(err)
		}
		nr.StateID++
		r.rec, r.st = nr, next
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
				bytes += int64(len(m.msg))
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
		before := r.st.Status()
		name, args, err := r.st.Bot("easy", before.Current, rng)
		if err != nil {
			t.Fatal(err)
		}
		next, err := r.st.Apply(before.Current, name, args)
		if err != nil {
			t.Fatal(err)
		}
		nr, err := r.successor(before.Current, name, args, before, next, false)
		if err != nil {
			t.Fatal(err)
		}
		r.rec, r.st = nr, next
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

func (s countSink) Send(msg []byte) bool { *s.n += int64(len(msg)); return true }
func (countSink) Close()                 {}

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
