package redisstore

import (
	"strings"

	"github.com/redis/go-redis/v9"
)

// Every script touches keys of one slot only: the record hash and the events
// channel of one match (same hash tag), or one index key.

// scriptSet is the scripts a store runs: plainScripts on one Redis server,
// shardedScripts on a Redis Cluster.
type scriptSet struct {
	create, update, publish, unindex, register *redis.Script
}

// all lists the set's scripts, for SCRIPT LOAD.
func (ss *scriptSet) all() []*redis.Script {
	return []*redis.Script{ss.create, ss.update, ss.publish, ss.unindex, ss.register}
}

// plainScripts publish with PUBLISH, which a Redis Cluster would broadcast
// to every node.
var plainScripts = &scriptSet{createScript, updateScript, publishScript, unindexScript, registerScript}

// shardedScripts publish with SPUBLISH and count subscribers with PUBSUB
// SHARDNUMSUB: on a Redis Cluster a match's events then go only to the
// nodes serving its slot (its master and replicas), where its subscribers
// are (see hub), instead of being broadcast over the cluster bus to every
// node.
var shardedScripts = &scriptSet{createScript, sharded(updateSrc), sharded(publishSrc), unindexScript, registerScript}

// sharded makes a script publishing on sharded channels out of src.
func sharded(src string) *redis.Script {
	return redis.NewScript(strings.NewReplacer(
		"'PUBLISH'", "'SPUBLISH'", "'NUMSUB'", "'SHARDNUMSUB'").Replace(src))
}

// createScript stores a new record unless the key exists, and renews the
// TTL of the match's registry of subscriptions (rooms may subscribe before
// the record exists), so that the registry never expires before the record.
// KEYS[1] record hash, KEYS[2] registry. ARGV[1] Version, ARGV[2] record
// JSON, ARGV[3] TTL ms.
// Returns 1 when created, 0 when the key exists.
var createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'sid', ARGV[1], 'rec', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
`)

// registerScript adds subscriptions' names to a match's registry and sets
// the registry's TTL. KEYS[1] registry. ARGV[1] TTL ms, ARGV[2], … names.
var registerScript = redis.NewScript(`
redis.call('SADD', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`)

// updateScript is the compare-and-set: it replaces the record only if the
// stored Version (field sid) is ARGV[1], renews the TTL of the record and
// of the match's registry of subscriptions (unless ARGV[4] is 0: the
// writer renewed them lately, see renewEvery), and publishes the event to
// the match's channel. With no subscribed connection nothing is published
// (a subscriber that comes later reads the record once subscribed). With
// one, the event is the notice {"stateID":<new Version>} (the key keeps
// the name earlier versions of this store gave it; it carries the
// record's Version), left out when the registry names the writer's own
// subscription (ARGV[5], empty for none) alone: that room already has the
// record. A subscriber that needs the record reads it with HGET, and since
// the script wrote it before publishing, finds it (or a later one). With
// more (viewers on other processes) the event carries the record,
// {"stateID":N,"record":<record JSON>}, which saves each of them that
// read. On a Redis Cluster the sharded variant (shardedScripts) counts
// with PUBSUB SHARDNUMSUB and publishes with SPUBLISH; subscribers are on
// the slot's master (go-redis subscribes there), so the count is complete.
// KEYS[1] record hash, KEYS[2] events channel, KEYS[3] the registry (a
// set of subscription names, see hub).
// ARGV[1] prev Version, ARGV[2] new Version, ARGV[3] record JSON, ARGV[4]
// TTL ms or 0, ARGV[5] the writer's subscription name or "".
// Returns 1 when updated, 0 when the record is missing, or the stored
// Version (a string) on a conflict.
var updateScript = redis.NewScript(updateSrc)

const updateSrc = `
local sid = redis.call('HGET', KEYS[1], 'sid')
if not sid then return 0 end
if sid ~= ARGV[1] then return sid end
redis.call('HSET', KEYS[1], 'sid', ARGV[2], 'rec', ARGV[3])
if ARGV[4] ~= '0' then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
local n = redis.call('PUBSUB', 'NUMSUB', KEYS[2])[2]
if n > 1 then
  redis.call('PUBLISH', KEYS[2], '{"stateID":' .. ARGV[2] .. ',"record":' .. ARGV[3] .. '}')
elseif n == 1 and not (ARGV[5] ~= '' and redis.call('SCARD', KEYS[3]) == 1
    and redis.call('SISMEMBER', KEYS[3], ARGV[5]) == 1) then
  redis.call('PUBLISH', KEYS[2], '{"stateID":' .. ARGV[2] .. '}')
end
return 1
`

// publishScript publishes an event if the match exists.
// KEYS[1] record hash, KEYS[2] events channel. ARGV[1] event JSON.
// Returns 1 when published, 0 when the record is missing.
var publishScript = redis.NewScript(publishSrc)

const publishSrc = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('PUBLISH', KEYS[2], ARGV[1])
return 1
`

// unindexScript removes a match ID from a game's index only if its score is
// still below the cutoff, so that an ID created again meanwhile (which
// rescored it) stays listed.
// KEYS[1] index. ARGV[1] match ID, ARGV[2] cutoff (Unix ms).
// Returns the number of IDs removed (0 or 1).
var unindexScript = redis.NewScript(`
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) < tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
`)
