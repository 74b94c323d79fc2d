#!/usr/bin/env bash
# Times logsleuth against `grep -c` (and `rg -c` where installed) on the
# same generated files in one run, and prints each throughput ratio and
# logsleuth's peak RSS.
#
#   scripts/bench.sh [INPUT...]
#
# INPUT is one of (all of them when none is given):
#   yb-256MiB yb-1GiB yb-2GiB   realistic tserver log (synth.Realistic:
#                               400 tablets, 6% Raft/lease lines, one
#                               founding incident)
#   yb-raft50                   256 MiB with half the lines Raft/lease lines
#   yb-dump1M                   one `Recent 1000000 MVCC operations` dump
#   yb-dump1M-days              the same with its hybrid times as a test
#                               build prints them ({ days: D time: ... })
#   yb-tablets1M                1,000,000 tablets, one line each
#   es-200MiB                   Elasticsearch TRACE log
#   es-ecs-200MiB               the same records as 8.x ECS JSON (a
#                               containerised node's default layout)
#
# BASE=path/to/other/logsleuth also times that binary on each input, so a
# change is measured against its baseline in the same run, the two taking
# turns. Each command runs three times after a warm-up read; the best wall
# time and the best CPU time (user+system) count, and the peak RSS is the
# highest of the runs (GNU time, /usr/bin/time). BENCH_DIR=DIR keeps the generated inputs
# there, to be reused; an input may be a symbolic link.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${BENCH_DIR:-$(mktemp -d)}
# The binaries and the timings are this run's own, so two runs sharing
# BENCH_DIR (its inputs) do not overwrite each other's.
own=$(mktemp -d)
trap 'rm -rf "$own"' EXIT
bin="$own/logsleuth"
go build -o "$bin" ./cmd/logsleuth
go build -o "$own/synthlog" ./cmd/synthlog
inputs=("$@")
[ ${#inputs[@]} -gt 0 ] || inputs=(yb-256MiB yb-1GiB yb-2GiB yb-raft50 yb-dump1M yb-dump1M-days yb-tablets1M es-200MiB es-ecs-200MiB)

gen() { # gen INPUT FILE
  local s="$own/synthlog -seed 7"
  case "$1" in
    yb-256MiB) $s -size 256MiB ;;
    yb-1GiB) $s -size 1GiB ;;
    yb-2GiB) $s -size 2GiB ;;
    yb-raft50) $s -size 256MiB -raft 0.5 ;;
    yb-dump1M) $s -system yb-dump -dump-entries 1000000 ;;
    yb-dump1M-days) $s -system yb-dump -dump-entries 1000000 -days ;;
    yb-tablets1M) $s -system yb-tablets -tablets 1000000 ;;
    es-200MiB) $s -system es -size 200MiB ;;
    es-ecs-200MiB) $s -system es -size 200MiB -es-layout ecs ;;
    *) echo "unknown input $1" >&2; exit 3 ;;
  esac > "$2"
}

literal() {
  case "$1" in
    es-*) echo "index-done" ;;
    *) echo "hybrid time too low" ;;
  esac
}

# once NAME CMD...: runs CMD once and keeps, under NAME, the least wall
# time and the least user+system CPU time so far (the steadier of the two
# on a shared host) and the highest peak RSS; its output goes to
# $own/out-NAME.txt. best NAME prints "seconds peak-kB cpu-seconds".
declare -A best_t best_c best_m
once() {
  local name=$1 t m u s
  shift
  # Output goes to a file: GNU grep stops at the first match when its
  # output is /dev/null, which would time nothing.
  /usr/bin/time -f "T %e %M %U %S" -o "$own/time.txt" "$@" > "$own/out-$name.txt" 2>/dev/null || true
  # time writes a status line first when the command fails or is killed.
  read -r _ t m u s < <(grep '^T ' "$own/time.txt" | tail -1)
  if [ -z "${s:-}" ]; then
    echo "bench: no timing for: $*" >&2
    return
  fi
  best_t[$name]=$(awk -v a="$t" -v b="${best_t[$name]:-}" 'BEGIN{ if (b=="" || a<b) print a; else print b }')
  best_c[$name]=$(awk -v a="$u" -v c="$s" -v b="${best_c[$name]:-}" 'BEGIN{ x=a+c; if (b=="" || x<b) print x; else print b }')
  if [ "$m" -gt "${best_m[$name]:-0}" ]; then best_m[$name]=$m; fi
}
best() { echo "${best_t[$1]:-0} ${best_m[$1]:-0} ${best_c[$1]:-0}"; }

printf '%s, %d cores\n' "$(go version | cut -d' ' -f3)" "$(nproc)"
command -v rg > /dev/null || echo "bench: rg not found, so no rg/ls column (Debian: apt-get install ripgrep)" >&2
printf '%-14s %9s %10s %8s %9s %9s %9s %8s %9s' input MiB logsleuth CPU-s MB/s grep/ls grepCPU/ls RSS-MiB events
command -v rg > /dev/null && printf ' %7s' rg/ls
[ -n "${BASE:-}" ] && printf ' %9s %8s %9s %9s %8s' base base/ls baseCPU-s bCPU/lsCPU baseRSS
printf '\n'
for in in "${inputs[@]}"; do
  log="$work/$in.log"
  [ -f "$log" ] || gen "$in" "$log"
  bytes=$(stat -L -c %s "$log")
  cat "$log" > /dev/null # warm the page cache
  best_t=() best_c=() best_m=()
  # logsleuth and the base build take turns, so a change in the host's
  # load weighs on both; grep and rg run three times each after them.
  for _ in 1 2 3; do
    once ls "$bin" analyze --fail-on none "$log"
    [ -z "${BASE:-}" ] || once base "$BASE" analyze --fail-on none "$log"
  done
  for _ in 1 2 3; do once grep grep -c "$(literal "$in")" "$log"; done
  read -r ls_t ls_m ls_c < <(best ls)
  events=$(grep -o '[0-9]* events' "$own/out-ls.txt" | tail -1 | cut -d' ' -f1)
  read -r grep_t _ grep_c < <(best grep)
  printf '%-14s %9.0f %9.2fs %7.2fs %9.0f %9.3f %9.3f %8.0f %9s' "$in" "$(awk -v b="$bytes" 'BEGIN{print b/1048576}')" "$ls_t" "$ls_c" \
    "$(awk -v b="$bytes" -v t="$ls_t" 'BEGIN{print b/t/1e6}')" "$(awk -v g="$grep_t" -v t="$ls_t" 'BEGIN{print g/t}')" \
    "$(awk -v g="$grep_c" -v t="$ls_c" 'BEGIN{ if (t > 0) print g/t; else print 0 }')" \
    "$(awk -v m="$ls_m" 'BEGIN{print m/1024}')" "${events:-?}"
  if command -v rg > /dev/null; then
    for _ in 1 2 3; do once rg rg -c "$(literal "$in")" "$log"; done
    read -r rg_t _ _ < <(best rg)
    printf ' %7.3f' "$(awk -v g="$rg_t" -v t="$ls_t" 'BEGIN{print g/t}')"
  fi
  if [ -n "${BASE:-}" ]; then
    read -r b_t b_m b_c < <(best base)
    printf ' %8.2fs %8.2f %8.2fs %9.2f %8.0f' "$b_t" "$(awk -v b="$b_t" -v t="$ls_t" 'BEGIN{print b/t}')" \
      "$b_c" "$(awk -v b="$b_c" -v t="$ls_c" 'BEGIN{ if (t > 0) print b/t; else print 0 }')" "$(awk -v m="$b_m" 'BEGIN{print m/1024}')"
  fi
  case "$in" in
    es-*) printf '   %s index op lines/s' "$(awk -v n="$(grep -c '\] index \[' "$log")" -v t="$ls_t" 'BEGIN{printf "%.0f", n/t}')" ;;
    yb-dump*) printf '   %s entries/s' "$(awk -v t="$ls_t" 'BEGIN{printf "%.0f", 1000000/t}')" ;;
  esac
  printf '\n'
done
