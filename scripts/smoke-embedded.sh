#!/usr/bin/env bash
# Starts Krug with no DATABASE_URL (embedded Postgres), checks what a first visitor sees, stops it with
# SIGTERM and checks that nothing is left running; then starts it again and finds the same data.
set -euo pipefail
cd "$(dirname "$0")/.."
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
check "second SIGTERM stops everything" 'stop'
echo "$pass passed, $failcount failed"
[ "$failcount" = 0 ]
