package games

import "errors"

// ErrNoExport is returned for a record format a game does not write.
var ErrNoExport = errors.New("no such record format")

// RecordMeta is what a downloadable game record says beyond the moves.
type RecordMeta struct {
	Players []string // names by seat; "" for a free seat
	Date    string   // the match's creation day, YYYY-MM-DD
}

// Export is a game record in a file format, ready to download.
type Export struct {
	ContentType string
	Ext         string // file name extension without the dot, e.g. "sgf"
	Data        []byte
}

// Exporter is implemented by rules that write their games in a file
// format (weiqi: SGF). Like View, it must write only what a spectator may
// see. Export returns ErrNoExport for a format it does not write.
type Exporter[S any] interface {
	Export(s S, format string, meta RecordMeta) (Export, error)
}
