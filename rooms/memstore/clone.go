package memstore

import (
	"bytes"
	"slices"

	"github.com/chaguan/chaguan/rooms"
)

// cloneRecord deep-copies r field by field: the events Update sends are
// copies of the caller's record, far cheaper than decoding the stored JSON
// once per subscriber (which once cost a quarter of the server's CPU, under
// the store's mutex). TestCloneSharesNothing fails if rooms.Record gains a
// field that this function would share.
func cloneRecord(r *rooms.Record) *rooms.Record {
	c := *r
	c.SetupData = bytes.Clone(r.SetupData)
	c.State = bytes.Clone(r.State)
	c.Gameover = bytes.Clone(r.Gameover)
	c.Seats = slices.Clone(r.Seats)
	for i := range c.Seats {
		c.Seats[i].Data = bytes.Clone(c.Seats[i].Data)
	}
	c.Log = slices.Clone(r.Log)
	for i := range c.Log {
		c.Log[i].Args = bytes.Clone(c.Log[i].Args)
	}
	return &c
}
