#!/usr/bin/env bash
# pairs.sh measures Chaguan against the floor on the Gomoku workload, both
# with Redis, in alternated pairs: the floor (tools/floor -ws -redis), then
# a fresh Chaguan server driven by the load generator (unpaced, the
# per-connection limit lifted, as the side-by-side runs do), PAIRS times.
# For each it prints moves/s and the CPU a move of the three processes
# (server, client, Redis), and for each pair Chaguan's share of the floor's
# moves/s and the ratio of the two CPU sums, which is what the share
# follows when the three processes fill the machine's cores.
#
#   tools/floor/pairs.sh [PAIRS]      # from the checkout; PAIRS defaults to 3
#
# M (matches, 100) and DUR (seconds, 15) set each run. Both runs use a
# redis-server of their own on a free loopback port (so that nothing else
# on the machine's Redis counts), which is why redis-server must be on
# PATH. Redis's CPU a move is read from INFO cpu: over the floor's measured
# window, and over the whole load-generator run for Chaguan (its setup,
# a fraction of a second, included).
set -u
cd "$(dirname "$0")/../.."
PAIRS=${1:-3}; M=${M:-100}; DUR=${DUR:-15}
W=$(mktemp -d); PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$W"' EXIT
go build -o "$W/chaguan" . && go build -o "$W/loadgen" ./clients/loadgen && go build -o "$W/floor" ./tools/floor || { echo "build failed"; exit 1; }
port() { python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
RP=$(port); REDIS="redis://127.0.0.1:$RP/0"
redis-server --port "$RP" --bind 127.0.0.1 --save "" --appendonly no >"$W/redis.log" 2>&1 & PIDS+=($!)
for _ in $(seq 50); do redis-cli -p "$RP" ping >/dev/null 2>&1 && break; sleep 0.1; done
rcpu() { redis-cli -p "$RP" info cpu | awk -F: '/^used_cpu_(user|sys):/ {s += $2} END {printf "%.6f", s}'; }

floor() { # prints "moves/s total-µs" after its line
  "$W/floor" -matches "$M" -duration "${DUR}s" -ws -redis "$REDIS" -json >"$W/floor.json" || return 1
  python3 - "$W/floor.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, c, r = d['serverPerMoveUs'], d['clientPerMoveUs'], d['redisPerMoveUs']
print(f"  floor    {d['movesPerSecond']:8.0f} moves/s   CPU a move: server {s:5.1f}  client {c:5.1f}  Redis {r:5.1f}  sum {s+c+r:6.1f} µs", file=sys.stderr)
print(d['movesPerSecond'], s + c + r)
PY
}

ours() { # the same for a fresh Chaguan server
  local p; p=$(port)
  "$W/chaguan" -addr "127.0.0.1:$p" -log-level warn -ws-rate 1000 -ws-burst 1000 -lobby-rate 0 -max-conns-per-ip 0 -redis "$REDIS" >"$W/server.log" 2>&1 &
  local pid=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$p/healthz" >/dev/null && break; sleep 0.2; done
  local r0; r0=$(rcpu)
  "$W/loadgen" -url "http://127.0.0.1:$p" -matches "$M" -duration "${DUR}s" -seat-rate 0 -json >"$W/ours.json" 2>"$W/ours.err"
  local st=$? r1; r1=$(rcpu)
  kill "$pid"; wait "$pid" 2>/dev/null
  [ "$st" = 0 ] || { cat "$W/ours.err" >&2; return 1; }
  python3 - "$W/ours.json" "$r0" "$r1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s, c = d['cpu']['serverPerMoveUs'], d['cpu']['clientPerMoveUs']
r = (float(sys.argv[3]) - float(sys.argv[2])) / d['moves'] * 1e6
print(f"  Chaguan  {d['movesPerSec']:8.0f} moves/s   CPU a move: server {s:5.1f}  client {c:5.1f}  Redis {r:5.1f}  sum {s+c+r:6.1f} µs   ack p99 {d['ack']['p99Ms']} ms", file=sys.stderr)
print(d['movesPerSec'], s + c + r)
PY
}

for i in $(seq "$PAIRS"); do
  echo "pair $i ($(date -u +%H:%M:%S) UTC)"
  read -r fm fc < <(floor) || { echo "the floor failed"; exit 1; }
  read -r om oc < <(ours) || { echo "Chaguan's run failed"; exit 1; }
  python3 -c "import sys; fm,fc,om,oc=map(float,sys.argv[1:]); print(f'  Chaguan {100*om/fm:.0f} % of the floor; its CPU a move {oc/fc:.2f} times the floor\'s')" "$fm" "$fc" "$om" "$oc"
done
echo "matches=$M window=${DUR}s load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
