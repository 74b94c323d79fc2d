#!/usr/bin/env bash
# The fleet path, measured: a generated 3-node YugabyteDB log loaded into a
# VictoriaLogs cluster (two storage nodes and a front node), then analysed
# from the cluster and from the files. Prints the bytes that travelled to
# logsleuth against the log's size, wall times and peak RSS.
#
#   scripts/vlogs-bench.sh [SIZE]          e.g. scripts/vlogs-bench.sh 1GiB
#
# Needs victoria-logs (LOGSLEUTH_VLOGS_BIN, or on PATH) and GNU time. Not
# run in CI: it takes minutes and a few GB of disk. With BENCH_DIR set to
# the directory of an earlier run, the logs and the cluster's data are
# kept: a second run analyses them again without shipping.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1GiB}
work=${BENCH_DIR:-$(mktemp -d)}
vl=${LOGSLEUTH_VLOGS_BIN:-$(command -v victoria-logs)}
bin="$work/logsleuth"
go build -o "$bin" ./cmd/logsleuth

# Three nodes' logs: the synth log's peers each write with their own
# thread id; a line without the glog envelope goes with the line before.
mkdir -p "$work/nodes"
if [ ! -f "$work/nodes/node-3.log" ]; then
  go run ./cmd/synthlog -system yb -size "$size" -seed 7 -peers 3 -incidents 2 |
    awk -v dir="$work/nodes" '
      NR <= 5 { hdr = hdr $0 "\n"; next }
      /^[IWEF][0-9][0-9][0-9][0-9] / {
        if (!($3 in node)) { n++; node[$3] = dir "/node-" n ".log"; printf "%s", hdr > node[$3] }
        out = node[$3]
      }
      { print > out }'
fi
bytes=$(cat "$work"/nodes/node-*.log | wc -c)

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true' EXIT
start() { # start NAME ADDR FLAGS...: a VictoriaLogs process, waited for
  local dir="$work/vl-$1" addr=$2; shift 2
  mkdir -p "$dir"
  # A loaded machine scans a gigabyte slower than the 30 s a query may
  # take by default.
  "$vl" -storageDataPath="$dir" -httpListenAddr="$addr" -retentionPeriod=100y -search.maxQueryDuration=10m -loggerLevel=ERROR "$@" > "$dir.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -fs "http://$addr/health" > /dev/null && return; sleep 0.1; done
  echo "victoria-logs $addr did not start" >&2; exit 1
}
s1=127.0.0.1:$(port); s2=127.0.0.1:$(port); front=127.0.0.1:$(port)
start s1 "$s1"; start s2 "$s2"; start front "$front" -storageNode="$s1,$s2"

printf '%s: %d bytes in 3 node logs, %s, %d cores\n' "$size" "$bytes" "$(go version | cut -d' ' -f3)" "$(nproc)"
if [ ! -f "$work/shipped" ]; then
  t0=$(date +%s.%N)
  "$bin" ship --to "vlogs://$front" --wait 120s "$work"/nodes/node-*.log > "$work/ship.txt"
  t1=$(date +%s.%N)
  touch "$work/shipped"
  printf 'ship: %.1f s\n' "$(echo "$t0 $t1" | awk '{print $2-$1}')"
fi
cat /proc/loadavg | awk '{print "load average before analysing:", $1, $2, $3}'

measure() { # measure NAME ARGS...: wall time and peak RSS of one analyze run
  local name=$1; shift
  /usr/bin/time -f '%e %M' -o "$work/time.txt" "$bin" analyze --fail-on none --format json "$@" > "$work/$name.json" 2> "$work/$name.err" || true
  # GNU time writes a line before its own when the command exits non-zero.
  read -r wall rss < <(tail -n 1 "$work/time.txt")
  printf '%-8s %7.2f s  peak RSS %6.1f MB\n' "$name" "$wall" "$(echo "$rss" | awk '{print $1/1024}')"
}
cat "$work"/nodes/node-*.log > /dev/null
measure files "$work"/nodes/node-*.log
measure store "vlogs://$front"
grep 'rows received' "$work/store.err"
got=$(sed -n 's/.*rows received (\(.*\)) in.*/\1/p' "$work/store.err")
echo "transferred $got of $(echo "$bytes" | awk '{printf "%.1f MiB", $1/1048576}') stored"
python3 - "$work/files.json" "$work/store.json" <<'EOF'
import json, re, sys
def key(p):
    fs = json.load(open(p))["findings"]
    ref = re.compile(r'\{file="([^"]+)",host="[^"]*"\}|[^ (]*/([^/ (]+\.log)')
    return sorted((f["rule"], json.dumps(f["subject"], sort_keys=True), ref.sub(lambda m: m.group(1) or m.group(2), f["message"]),
                   tuple((e["line"], e["text"]) for e in f["evidence"])) for f in fs)
a, b = key(sys.argv[1]), key(sys.argv[2])
print(f"findings: {len(a)} from files, {len(b)} from the store, {'identical' if a == b else 'DIFFERENT'}")
EOF
