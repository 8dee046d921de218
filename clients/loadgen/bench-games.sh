#!/bin/bash
# bench-games.sh runs the measurements of docs/performance.md's "Gong Zhu
# under load" against one fresh server: Gomoku and Gong Zhu at 100 and then
# 1,000 matches, one after the other, with a CPU profile of the server in
# the middle of the 1,000-match Gong Zhu run and the load average and Redis
# INFO around each run.
#
#   go build -o /tmp/chaguan . && go build -o /tmp/loadgen ./clients/loadgen
#   clients/loadgen/bench-games.sh mem 8095
#   clients/loadgen/bench-games.sh redis 8096 -redis redis://127.0.0.1:6379/0
#
# Results go to $OUT/NAME (default /tmp/bench-games/NAME). DUR sets each
# run's length (default 20s); CHAGUAN and LOADGEN the binaries. As in
# bench.sh these are saturation runs: the server's per-connection and lobby
# rate limits are lifted and the seats are not paced. Gong Zhu never ends,
# so the run leaves its matches open: -grace 1h keeps bots off them
# afterwards, and -ttl 10m lets a Redis store expire them soon.
set -u
name=$1; port=$2; shift 2
out=${OUT:-/tmp/bench-games}/$name; mkdir -p "$out"
url=http://127.0.0.1:$port
chaguan=${CHAGUAN:-/tmp/chaguan}; loadgen=${LOADGEN:-/tmp/loadgen}
"$chaguan" -addr 127.0.0.1:$port -pprof -log-level warn -ws-rate 1000 -ws-burst 1000 \
  -lobby-rate 0 -max-conns-per-ip 0 -grace 1h -ttl 10m "$@" > "$out/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for _ in $(seq 50); do curl -sf $url/healthz > /dev/null && break; sleep 0.2; done
for n in 100 1000; do
  for game in gomoku gongzhu; do
    run=$game-$n
    sleep 3
    uptime > "$out/uptime-before-$run"
    redis-cli info cpu > "$out/rediscpu-before-$run"
    "$loadgen" -url $url -game $game -matches $n -duration "${DUR:-20s}" -seat-rate 0 -json > "$out/$run.json" &
    lg=$!
    if [ $run = gongzhu-1000 ]; then
      # Setup of 1,000 Gong Zhu matches (5,000 connections) takes a while:
      # wait until the loadgen's progress is measurable, then profile.
      sleep "${PROFILE_AFTER:-10}"
      curl -s -o "$out/cpu-$run.pprof" "$url/debug/pprof/profile?seconds=10"
    fi
    wait $lg
    redis-cli info cpu > "$out/rediscpu-after-$run"
    uptime > "$out/uptime-after-$run"
    grep -h '"movesPerSec"\|"setupMs"' "$out/$run.json" | tr -d '\n'; echo " $run"
  done
done
