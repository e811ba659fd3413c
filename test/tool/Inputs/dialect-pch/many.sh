#!/usr/bin/env bash
# many.sh TOOL DIR SOURCE: four rewrites of SOURCE at once, sharing the
# cache DIR/pch (whose first request was seen), each compared with
# DIR/full.cpp (test/tool/dialect-pch.test).
set -u
tool=$1 dir=$2 src=$3
pids=()
for i in 1 2 3 4; do
  "$tool" --pch-dir "$dir/pch" "$src" -o "$dir/m$i.cpp" &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
for i in 1 2 3 4; do diff "$dir/full.cpp" "$dir/m$i.cpp" || status=1; done
exit $status
