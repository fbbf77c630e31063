#!/usr/bin/env bash
# Starts Krug with no DATABASE_URL (embedded Postgres), checks what a first visitor sees, stops it with
# SIGTERM and checks that nothing is left running; then starts it again and finds the same data.
set -euo pipefail
cd "$(dirname "$0")/.."
# The project's own Node (24, from the npm `node` package: docs/adr/0160) first, as npm scripts have it:
# this script runs node directly (smoke-rolling.ts, and the restart it spawns), and the machine's may be older.
export PATH="$PWD/node_modules/.bin:$PATH"
unset DATABASE_URL
export DATA_DIR="${SMOKE_DATA_DIR:-$(mktemp -d /tmp/krug-smoke.XXXXXX)}"
chmod 755 "$DATA_DIR"
export PORT="${SMOKE_PORT:-3200}" REALTIME_PORT="${SMOKE_REALTIME_PORT:-3201}" WEB_CONCURRENCY=2
base="http://127.0.0.1:$PORT"
pass=0; failcount=0
check() { if eval "$2"; then pass=$((pass+1)); echo "ok   $1"; else failcount=$((failcount+1)); echo "FAIL $1"; fi; }

start() {
  setsid npm start >"$DATA_DIR/start.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 240); do
    curl -fs "$base/api/ready" >/dev/null 2>&1 && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$DATA_DIR/start.log"; return 1; }
    sleep 0.5
  done
  cat "$DATA_DIR/start.log"; return 1
}

stop() {
  kill -TERM "$pid"
  for _ in $(seq 1 24); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  ! kill -0 "$pid" 2>/dev/null
}

start
check "GET / redirects to /login?redirect=…" '[[ "$(curl -s -o /dev/null -w "%{redirect_url}" "$base/")" == *"/login?redirect="* ]]'
check "/login renders in Russian" 'curl -s "$base/login" | grep -q "<html lang=\"ru\""'
check "/api/health answers 200" '[ "$(curl -s -o /dev/null -w "%{http_code}" "$base/api/health")" = 200 ]'
check "/api/ready answers 200" '[ "$(curl -s -o /dev/null -w "%{http_code}" "$base/api/ready")" = 200 ]'
check "unauthenticated socket gets 401" '[ "$(curl -s -o /dev/null -w "%{http_code}" -H "Connection: Upgrade" -H "Upgrade: websocket" -H "Sec-WebSocket-Version: 13" -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" "$base/api/v1/streaming/ws")" = 401 ]'
check "an account can be created" 'npm run -s account:create -- --email smoke@example.com --password "Smoke-pass1!" --first Smoke --last Test >/dev/null'
check "a second account can be created" 'npm run -s account:create -- --email smoke2@example.com --password "Smoke-pass1!" --first Second --last Test >/dev/null'
check "SIGTERM stops everything within 10 s" 'stop'
check "no process left behind" '! pgrep -f "$DATA_DIR" >/dev/null && ! curl -s -o /dev/null "$base/api/health" && ! (exec 3<>"/dev/tcp/127.0.0.1/$REALTIME_PORT") 2>/dev/null'
# The web workers (docs/adr/0099, 0145): both serve, and one killed outright is replaced alone while the other serves.
workers_up() { grep -c "web server on :$PORT (worker" "$DATA_DIR/start.log" || true; }
worker_pid() {
  for p in $(pgrep -f "scripts/next-server.ts"); do
    env_of=$(tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null) || continue
    grep -qx "DATA_DIR=$DATA_DIR" <<<"$env_of" && grep -qx "KRUG_WEB_WORKER=1" <<<"$env_of" && { echo "$p"; return; }
  done
}
restarted() {
  local before=$1
  for _ in $(seq 1 60); do
    [ "$(workers_up)" -ge $((before + 1)) ] && curl -fs "$base/api/ready" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  return 1
}
start
check "a second start finds the same data" '[ "$(curl -s -o /dev/null -w "%{http_code}" -H "content-type: application/json" -d "{\"email\":\"smoke@example.com\",\"password\":\"Smoke-pass1!\"}" "$base/api/v1/auth/login")" = 200 ]'
both_up() { for _ in $(seq 1 60); do [ "$(workers_up)" -ge 2 ] && return 0; sleep 0.5; done; return 1; }
check "two web workers serve the port" 'both_up && [ -n "$(worker_pid)" ]'
check "a web worker killed outright: the other serves on, and it is replaced within 30 s" 'before=$(workers_up); kill -9 "$(worker_pid)" && sleep 0.3 && curl -fs "$base/api/ready" >/dev/null && restarted "$before" && grep -q "replacing web worker 1" "$DATA_DIR/start.log" && ! grep -q "restarting the web server" "$DATA_DIR/start.log"'
# The rolling restart (docs/adr/0149): a release beside the running build (here a copy of it: a real
# `next build` would cost minutes), then `npm run restart` with a chat in flight and requests all along.
releases="${NEXT_DIST_DIR:-.next}-releases"
release=""
make_release() {
  npm run -s build:release -- --from-build "${NEXT_DIST_DIR:-.next}" >"$DATA_DIR/release.log" 2>&1 || { cat "$DATA_DIR/release.log"; return 1; }
  release=$(cat "$releases/current") && [ -f "$releases/$release/BUILD_ID" ]
}
check "npm run build:release makes a release beside the running build" 'make_release'
check "a rolling restart keeps the chat (0 lost, 0 duplicated, sockets resumed), answers no 5xx, old static files served" \
  'SMOKE_BASE="$base" SMOKE_A=smoke@example.com SMOKE_B=smoke2@example.com SMOKE_PASSWORD="Smoke-pass1!" node --import tsx scripts/smoke-rolling.ts'
check "both web workers were replaced by ones on the release, then the sidecar; no crash restart" \
  'grep -q "web worker 0 on $releases/$release serves" "$DATA_DIR/start.log" && grep -q "web worker 1 on $releases/$release serves" "$DATA_DIR/start.log" && grep -q "rolling restart done" "$DATA_DIR/start.log" && ! grep -q "exited unexpectedly" "$DATA_DIR/start.log"'
check "the workers of the previous build have stopped" '[ "$(grep -c "of the previous build (pid [0-9]*) has stopped" "$DATA_DIR/start.log")" = 2 ]'
check "second SIGTERM stops everything" 'stop'
# The release made here is removed: the next start serves the plain build again.
if [ -n "$release" ]; then
  rm -rf "${releases:?}/$release"
  [ "$(cat "$releases/current" 2>/dev/null)" = "$release" ] && rm -f "$releases/current"
fi
echo "$pass passed, $failcount failed"
[ "$failcount" = 0 ]
