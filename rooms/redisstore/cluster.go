package redisstore

import (
	"context"
	"errors"
	"io"
	"net"

	"github.com/redis/go-redis/v9"
)

// go-redis's cluster client keeps a map of which master serves which slot,
// and reloads it on MOVED and ASK replies; but when a master dies it goes
// on dialling the dead address (connection refused) for as long as no
// reply says otherwise, well past the replica's promotion. The store
// therefore has the map reloaded whenever a command fails on the network or
// with CLUSTERDOWN (go-redis runs one reload at a time and at most every
// 200 ms, however many ask), so that once the replica has taken over the
// next command goes to it. The hub does the same for its pub/sub
// connections (dispatch).

// reloadOnFailure is a go-redis hook that reloads the cluster's slot map
// after a failed command or pipeline.
type reloadOnFailure struct{ cc *redis.ClusterClient }

// watchFailovers installs reloadOnFailure on cc. A client given in Options
// gets it too: it changes nothing but when the slot map is reloaded.
func watchFailovers(cc *redis.ClusterClient) { cc.AddHook(reloadOnFailure{cc}) }

func (h reloadOnFailure) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h reloadOnFailure) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if nodeFailed(cmd.Err()) {
			h.cc.ReloadState(ctx)
		}
		return err
	}
}

func (h reloadOnFailure) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		err := next(ctx, cmds)
		for _, cmd := range cmds {
			if nodeFailed(cmd.Err()) {
				h.cc.ReloadState(ctx)
				break
			}
		}
		return err
	}
}

// nodeFailed reports whether err says a node could not be reached or the
// cluster is failing over, as against a reply (redis.Nil, a script's
// error) or the caller's own context ending.
func nodeFailed(err error) bool {
	var ne net.Error
	switch {
	case err == nil, errors.Is(err, context.Canceled):
		return false
	case redis.HasErrorPrefix(err, "CLUSTERDOWN"), redis.HasErrorPrefix(err, "TRYAGAIN"):
		return true
	}
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
