package rooms

import "context"

// A room learns of other processes' writes from the store's events, which
// can be lost: a store's connection to its backend breaks (a Redis
// restart), or a slow subscriber misses some. Two things keep a room from
// serving an old state for good:
//   - a resync event, which a store sends once it delivers again after a
//     lost connection, makes the room re-read its record and show the
//     newer one to every viewer (resync);
//   - before it answers a connection or a sync, the room checks that its
//     record is still the stored one (refreshIfStale), so a client that asks, or
//     a new one, never gets an old state even before the resync came.

// resync re-reads the record and, if it is newer than the room's, takes
// it and shows it to every viewer.
func (r *room) resync() {
	if _, err := r.refresh(); err != nil {
		r.log.Warn("cannot re-read the record after lost events", "err", err)
	}
}

// refreshIfStale makes the room's record the stored one when the store has a
// newer one: it compares versions when the store can read one alone
// (VersionReader), and re-reads the record otherwise. A failure leaves the
// room as it was (it is logged): the viewer gets what the room has.
func (r *room) refreshIfStale() {
	if vr, ok := r.m.cfg.Store.(VersionReader); ok {
		ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
		sid, err := vr.Version(ctx, r.id)
		cancel()
		if err != nil {
			r.log.Warn("cannot check the stored version", "err", err)
			return
		}
		if sid <= r.rec.Version {
			return
		}
	}
	r.resync()
}
