#!/usr/bin/env bash
# `npm test`: every test, in the order that fails fastest, with the slow steps side by side where the
# two cores allow: lint beside typecheck, then the unit tests, then the integration tests beside the
# production build the browser journeys run against, then the journeys on that build (two workers).
set -euo pipefail
cd "$(dirname "$0")/.."

side_by_side() { # name command… ; name command…  → runs both, fails if either fails, prints each log whole:
  # the failed ones last, so that the end of the output (all a CI summary may keep) shows the failure.
  local logs pids=() names=() status=0 failed=()
  logs=$(mktemp -d)
  while [ $# -gt 0 ]; do
    local name=$1; shift
    local cmd=()
    while [ $# -gt 0 ] && [ "$1" != ";" ]; do cmd+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    "${cmd[@]}" >"$logs/$name.log" 2>&1 &
    pids+=($!); names+=("$name")
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      echo "[test] ${names[$i]}: ok"
      cat "$logs/${names[$i]}.log"
    else
      status=1
      failed+=("${names[$i]}")
    fi
  done
  for name in "${failed[@]}"; do
    echo "[test] $name: FAILED"
    cat "$logs/$name.log"
  done
  [ $status -eq 0 ] || echo "[test] FAILED: ${failed[*]}"
  rm -rf "$logs"
  return $status
}

side_by_side lint npm run lint ";" typecheck npm run typecheck
npm run test:unit
# The typecheck above covered the route types too (`next typegen`): the build skips its own pass.
side_by_side integration npm run test:integration ";" build env KRUG_BUILD_TYPECHECKED=1 npm run e2e:server -- --build-only
E2E_REUSE_BUILD=1 npm run test:e2e
