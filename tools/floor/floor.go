package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"
)

// msgConn is one connection's message framing: raw length-prefixed TCP
// messages or gorilla WebSocket text frames.
type msgConn interface {
	read(buf []byte) ([]byte, error)
	write(b []byte) error
	Close() error
}

// rawConn frames messages with a 4-byte big-endian length.
type rawConn struct {
	c  net.Conn
	br *bufio.Reader
	wb []byte
}

func newRawConn(c net.Conn) *rawConn { return &rawConn{c: c, br: bufio.NewReaderSize(c, 4096)} }

func (r *rawConn) read(buf []byte) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(r.br, h[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(h[:]))
	if n > maxMessage {
		return nil, fmt.Errorf("message of %d bytes", n)
	}
	if n > cap(buf) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	_, err := io.ReadFull(r.br, buf)
	return buf, err
}

func (r *rawConn) write(b []byte) error {
	r.wb = binary.BigEndian.AppendUint32(r.wb[:0], uint32(len(b)))
	r.wb = append(r.wb, b...)
	_, err := r.c.Write(r.wb)
	return err
}

func (r *rawConn) Close() error { return r.c.Close() }

// wsConn is a gorilla WebSocket carrying text frames.
type wsConn struct{ c *websocket.Conn }

func (w wsConn) read(buf []byte) ([]byte, error) {
	_, rd, err := w.c.NextReader()
	if err != nil {
		return nil, err
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (w wsConn) write(b []byte) error { return w.c.WriteMessage(websocket.TextMessage, b) }
func (w wsConn) Close() error         { return w.c.Close() }

// maxMessage bounds what either side reads.
const maxMessage = 1 << 16

// server pairs connections into matches by the match number each one
// names and plays them.
type server struct {
	cfg   config
	store *recordStore // nil without Redis
	moves atomic.Int64

	mu      sync.Mutex
	waiting map[int]*pending // matches with one seat connected
}

type pending struct {
	seats [2]msgConn
	n     int
}

func newServer(cfg config, store *recordStore) *server {
	return &server{cfg: cfg, store: store, waiting: map[int]*pending{}}
}

// join seats c in match m; the second seat starts the match.
func (s *server) join(m, seat int, c msgConn) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("seat %d", seat)
	}
	s.mu.Lock()
	p := s.waiting[m]
	if p == nil {
		p = &pending{}
		s.waiting[m] = p
	}
	if p.seats[seat] != nil {
		s.mu.Unlock()
		return fmt.Errorf("match %d seat %d taken", m, seat)
	}
	p.seats[seat] = c
	p.n++
	full := p.n == 2
	if full {
		delete(s.waiting, m)
	}
	s.mu.Unlock()
	if full {
		go s.play(m, p.seats)
	}
	return nil
}

// serveRaw accepts raw connections; each names its match and seat in a
// first message "match seat".
func (s *server) serveRaw(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go func() {
			rc := newRawConn(c)
			b, err := rc.read(make([]byte, 64))
			var m, seat int
			if err == nil {
				_, err = fmt.Sscan(string(b), &m, &seat)
			}
			if err == nil {
				err = s.join(m, seat, rc)
			}
			if err != nil {
				c.Close()
			}
		}()
	}
}

var upgrader = websocket.Upgrader{ReadBufferSize: 512, WriteBufferSize: 512}

// ServeHTTP upgrades /ws?m=M&seat=S.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m, err1 := strconv.Atoi(r.URL.Query().Get("m"))
	seat, err2 := strconv.Atoi(r.URL.Query().Get("seat"))
	if err1 != nil || err2 != nil {
		http.Error(w, "m and seat", http.StatusBadRequest)
		return
	}
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c.SetReadLimit(maxMessage)
	if s.join(m, seat, wsConn{c}) != nil {
		c.Close()
	}
}

// play runs one match with the real server's hand-offs: a reader per
// connection passes each move to the match goroutine, which stores the
// move (one EVALSHA, pipelined with other matches') and queues a frame for
// each connection's writer. A move out of turn ends the match.
func (s *server) play(m int, seats [2]msgConn) {
	moves := make(chan int, 2)
	quit := make(chan struct{})
	var once sync.Once
	var outs [2]chan []byte
	var wg sync.WaitGroup
	for i, c := range seats {
		outs[i] = make(chan []byte, 8)
		wg.Add(2)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 128)
			for {
				if _, err := c.read(buf); err != nil {
					once.Do(func() { close(quit) })
					return
				}
				select {
				case moves <- i:
				case <-quit:
					return
				}
			}
		}()
		go func() {
			defer wg.Done()
			for f := range outs[i] {
				if c.write(f) != nil {
					return
				}
			}
		}()
	}
	key := fmt.Sprintf("floor:{%d-%d}", m, time.Now().UnixNano())
	var stateID int64
	turn := 0
loop:
	for {
		select {
		case seat := <-moves:
			if seat != turn {
				break loop
			}
			if s.store != nil {
				if err := s.store.update(key, stateID); err != nil {
					break loop
				}
			}
			stateID++
			turn = 1 - turn
			s.moves.Add(1)
			for i := range outs {
				// A fresh frame per seat, as the server encodes one.
				f := make([]byte, s.cfg.Frame)
				for j := range f {
					f[j] = 'x'
				}
				outs[i] <- f
			}
		case <-quit:
			break loop
		}
	}
	for i := range outs {
		close(outs[i])
	}
	for _, c := range seats {
		c.Close()
	}
	wg.Wait()
	if s.store != nil {
		s.store.rdb.Del(context.Background(), key)
	}
}

// recordStore writes each move's record with the compare-and-set script
// the Redis store uses (HGET the stateID, HSET, PEXPIRE, PUBLISH), through
// a few workers that pipeline the calls waiting at the same moment.
type recordStore struct {
	rdb    *redis.Client
	record []byte
	script *redis.Script
	queue  chan *storeCall
}

type storeCall struct {
	key  string
	id   int64
	cmd  *redis.Cmd
	done chan struct{}
}

const casScript = `
local cur = redis.call('HGET', KEYS[1], 'stateID')
if cur and tonumber(cur) ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'stateID', ARGV[2], 'rec', ARGV[3])
redis.call('PEXPIRE', KEYS[1], 60000)
redis.call('PUBLISH', KEYS[2], ARGV[2])
return 1`

func newRecordStore(ctx context.Context, url string, recordBytes, workers int) (*recordStore, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	rdb := redis.NewClient(opt)
	st := &recordStore{rdb: rdb, script: redis.NewScript(casScript), queue: make(chan *storeCall, 256)}
	if err := st.script.Load(ctx, rdb).Err(); err != nil {
		rdb.Close()
		return nil, err
	}
	st.record = make([]byte, recordBytes)
	for i := range st.record {
		st.record[i] = 'r'
	}
	for range workers {
		go st.work()
	}
	return st, nil
}

func (st *recordStore) update(key string, id int64) error {
	c := &storeCall{key: key, id: id, done: make(chan struct{})}
	st.queue <- c
	<-c.done
	n, err := c.cmd.Int()
	if err == nil && n != 1 {
		err = errors.New("conflict")
	}
	return err
}

func (st *recordStore) work() {
	batch := make([]*storeCall, 0, 256)
	for c := range st.queue {
		batch = append(batch[:0], c)
	more:
		for len(batch) < cap(batch) {
			select {
			case c := <-st.queue:
				batch = append(batch, c)
			default:
				break more
			}
		}
		p := st.rdb.Pipeline()
		for _, c := range batch {
			c.cmd = st.script.EvalSha(context.Background(), p, []string{c.key, c.key + ":events"}, c.id, c.id+1, st.record)
		}
		p.Exec(context.Background())
		for _, c := range batch {
			close(c.done)
		}
	}
}
