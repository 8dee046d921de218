#!/bin/bash
# bench.sh runs the measurements of docs/performance.md against a fresh
# server: 2,000 idle spectators, then 1, 100 and 1,000 matches, with a CPU
# profile of the server during the 1,000-match run and Redis INFO before and
# after each run.
#
#   go build -o /tmp/chaguan . && go build -o /tmp/loadgen ./clients/loadgen
#   clients/loadgen/bench.sh mem 8093
#   clients/loadgen/bench.sh redis 8094 -redis redis://127.0.0.1:6379/0
#
# Results go to $OUT/NAME (default /tmp/bench/NAME). DUR sets each run's
# length (default 20s); CHAGUAN and LOADGEN the binaries. The server's
# per-connection rate limit is lifted (-ws-rate 1000) and the seats are not
# paced (-seat-rate 0): these are saturation runs.
set -u
name=$1; port=$2; shift 2
out=${OUT:-/tmp/bench}/$name; mkdir -p "$out"
url=http://127.0.0.1:$port
chaguan=${CHAGUAN:-/tmp/chaguan}; loadgen=${LOADGEN:-/tmp/loadgen}
"$chaguan" -addr 127.0.0.1:$port -pprof -log-level warn -ws-rate 1000 -ws-burst 1000 -lobby-rate 0 -max-conns-per-ip 0 "$@" > "$out/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf $url/healthz > /dev/null && break; sleep 0.2; done
uptime > "$out/uptime-start"
"$loadgen" -url $url -matches 1 -duration 1s -idle 2000 -json > "$out/idle.json"
for n in 1 100 1000; do
  sleep 3
  redis-cli info commandstats > "$out/cmdstats-before-$n"
  redis-cli info cpu > "$out/rediscpu-before-$n"
  "$loadgen" -url $url -matches $n -duration "${DUR:-20s}" -seat-rate 0 -json > "$out/run-$n.json" &
  lg=$!
  if [ $n = 1000 ]; then
    sleep 8
    curl -s -o "$out/cpu-$n.pprof" "$url/debug/pprof/profile?seconds=10"
  fi
  wait $lg
  redis-cli info commandstats > "$out/cmdstats-after-$n"
  redis-cli info cpu > "$out/rediscpu-after-$n"
  uptime > "$out/uptime-$n"
done
