#!/usr/bin/env bash
# Lists every fuzz target as package:FuzzName, for CI's short fuzz runs.
set -euo pipefail
cd "$(dirname "$0")/.."
grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r f; do
  pkg="./$(dirname "${f#./}")"
  grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //' | while read -r name; do
    echo "$pkg:$name"
  done
done
