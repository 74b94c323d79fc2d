#!/usr/bin/env bash
# Compares logsleuth's throughput with `grep -c` and `rg -c` for a literal on
# the same generated file, in one go, and prints the ratios.
#
#   scripts/bench.sh [yb|es] [SIZE]      e.g. scripts/bench.sh yb 1GiB
#
# Each command runs three times after a warm-up read; the best time counts.
set -euo pipefail
cd "$(dirname "$0")/.."
system=${1:-yb}
size=${2:-1GiB}
work=${BENCH_DIR:-$(mktemp -d)}
log="$work/synth-$system-$size.log"
bin="$work/logsleuth"

go build -o "$bin" ./cmd/logsleuth
[ -f "$log" ] || go run ./cmd/synthlog -system "$system" -size "$size" -seed 7 > "$log"
case "$system" in
  yb) literal="hybrid time too low" ;;
  es) literal="index-done" ;;
esac
bytes=$(stat -c %s "$log")
cat "$log" > /dev/null # warm the page cache

best() { # best wall seconds of three runs of "$@"
  local b=""
  for _ in 1 2 3; do
    local s e
    # Output goes to a file: GNU grep stops at the first match when its
    # output is /dev/null, which would time nothing.
    s=$(date +%s.%N); "$@" > "$work/out.txt" 2>&1 || true; e=$(date +%s.%N)
    b=$(echo "$s $e $b" | awk '{t=$2-$1; if ($3=="" || t<$3) print t; else print $3}')
  done
  echo "$b"
}

printf '%s, %s (%d bytes), %s, %d cores\n' "$system" "$size" "$bytes" "$(go version | cut -d' ' -f3)" "$(nproc)"
ls_t=$(best "$bin" analyze --fail-on none "$log")
grep_t=$(best grep -c "$literal" "$log")
printf '%-22s %8.3f s %9.1f MB/s\n' "logsleuth analyze" "$ls_t" "$(echo "$bytes $ls_t" | awk '{print $1/$2/1e6}')"
printf '%-22s %8.3f s %9.1f MB/s   logsleuth/grep throughput ratio %.2f\n' "grep -c" "$grep_t" \
  "$(echo "$bytes $grep_t" | awk '{print $1/$2/1e6}')" "$(echo "$grep_t $ls_t" | awk '{print $1/$2}')"
if command -v rg > /dev/null; then
  rg_t=$(best rg -c "$literal" "$log")
  printf '%-22s %8.3f s %9.1f MB/s   logsleuth/rg throughput ratio %.2f\n' "rg -c" "$rg_t" \
    "$(echo "$bytes $rg_t" | awk '{print $1/$2/1e6}')" "$(echo "$rg_t $ls_t" | awk '{print $1/$2}')"
else
  echo "rg not installed (apt-get install ripgrep) - skipped"
fi
if [ "$system" = es ]; then
  ops=$(grep -c '\] index \[' "$log" || true)
  printf 'op lines: %d, %.0f op lines/s\n' "$ops" "$(echo "$ops $ls_t" | awk '{print $1/$2}')"
fi
