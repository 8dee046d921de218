package rooms

import (
	"context"
	"errors"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Export returns the stored game record of a match in format (weiqi:
// "sgf"), with the seats' names and the match's creation day. It reads the
// store, so it sees every accepted move whichever process made it. A game
// without that format is not_found.
func (m *Manager) Export(ctx context.Context, gameName, id, format string) (games.Export, error) {
	rec, g, err := m.load(ctx, gameName, id)
	if err != nil {
		return games.Export{}, err
	}
	st, err := g.Load(rec.State)
	if err != nil {
		return games.Export{}, AsError(err)
	}
	meta := games.RecordMeta{Date: time.UnixMilli(rec.CreatedAt).UTC().Format(time.DateOnly)}
	for _, s := range rec.Seats {
		meta.Players = append(meta.Players, s.Name)
	}
	out, err := st.Export(format, meta)
	if errors.Is(err, games.ErrNoExport) {
		return games.Export{}, newError(protocol.CodeNotFound, "%s has no %s record", gameName, format)
	}
	if err != nil {
		return games.Export{}, AsError(err)
	}
	return out, nil
}
