#!/usr/bin/env bash
# Shared steps of the quick start and the test run. Each step checks before it acts, so running
# the commands twice is cheap and a brand-new machine gets everything it needs.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RUN_DIR="$ROOT/.run"
mkdir -p "$RUN_DIR"

PG_HOST="${PG_HOST:-127.0.0.1}"
PG_PORT="${PG_PORT:-5432}"
REDIS_HOST="${REDIS_HOST:-127.0.0.1}"
REDIS_PORT="${REDIS_PORT:-6379}"

say() { printf '\033[1;34m▸\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m✗ %s\033[0m\n' "$*" >&2; exit 1; }

require_node() {
  command -v node >/dev/null 2>&1 || fail "Node.js 20.19+ is required (https://nodejs.org). Install it and run this again."
  local major minor
  major=$(node -p 'process.versions.node.split(".")[0]')
  minor=$(node -p 'process.versions.node.split(".")[1]')
  if [ "$major" -lt 20 ] || { [ "$major" -eq 20 ] && [ "$minor" -lt 19 ]; }; then
    fail "Node.js 20.19+ is required; this machine has $(node --version)."
  fi
}

install_deps() {
  local stamp="$ROOT/node_modules/.kj-installed"
  if [ ! -f "$stamp" ] || [ "$ROOT/package-lock.json" -nt "$stamp" ]; then
    say "Installing npm dependencies (npm ci)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    touch "$stamp"
  fi
}

tcp_open() { (exec 3<>"/dev/tcp/$1/$2") >/dev/null 2>&1; }

compose_up() {
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    say "Starting $1 with docker compose"
    (cd "$ROOT" && docker compose up -d "$1")
    return 0
  fi
  return 1
}

wait_for_port() { # host port seconds
  local i
  for ((i = 0; i < $3 * 4; i++)); do
    tcp_open "$1" "$2" && return 0
    sleep 0.25
  done
  return 1
}

ensure_postgres() {
  tcp_open "$PG_HOST" "$PG_PORT" && return 0
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    say "Starting the local PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  else
    compose_up postgres || true
  fi
  wait_for_port "$PG_HOST" "$PG_PORT" 30 || fail "PostgreSQL is not reachable at $PG_HOST:$PG_PORT.
  Start one (e.g. 'docker compose up -d postgres', or install PostgreSQL 15+ with 'apt-get install postgresql')
  or point DATABASE_URL at an existing server, then run this again."
}

ensure_redis() {
  tcp_open "$REDIS_HOST" "$REDIS_PORT" && return 0
  if command -v redis-server >/dev/null 2>&1; then
    say "Starting a local Redis"
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
  else
    compose_up redis || true
  fi
  wait_for_port "$REDIS_HOST" "$REDIS_PORT" 15 || fail "Redis is not reachable at $REDIS_HOST:$REDIS_PORT.
  Start one (e.g. 'docker compose up -d redis', or 'apt-get install redis-server') or set REDIS_URL, then run this again."
}

ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "Installing Chromium and CJK fonts from Debian (for the browser tests)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-liberation fonts-noto-cjk >/dev/null
  else
    fail "The browser tests need Debian's chromium at /usr/bin/chromium: sudo apt-get install -y chromium fonts-noto-cjk"
  fi
}

# Creates the database named in the URL if it does not exist, then applies migrations.
prepare_database() { # database-url
  say "Preparing database $(node -e 'console.log(new URL(process.argv[1]).pathname.slice(1))' "$1")"
  (cd "$ROOT" && DATABASE_URL="$1" npx tsx scripts/ensure-database.ts)
  (cd "$ROOT" && DATABASE_URL="$1" npx prisma migrate deploy >/dev/null)
}

generate_prisma() {
  (cd "$ROOT" && npx prisma generate >/dev/null)
}

build_all() {
  say "Building libs, api, worker and web"
  (cd "$ROOT" && npm run build --silent)
}

# Starts api, worker and web in the background; pids and logs go to .run/<name>.{pid,log}.
start_stack() { # api-port web-port database-url redis-url tag
  local api_port=$1 web_port=$2 db=$3 redis=$4 tag=$5
  stop_stack "$tag"
  local port
  for port in "$api_port" "$web_port"; do
    tcp_open 127.0.0.1 "$port" && fail "port $port is already in use: stop what runs there (or set API_PORT / WEB_PORT) and run this again."
  done
  say "Starting api :$api_port, worker and web :$web_port"
  (cd "$ROOT" && DATABASE_URL="$db" REDIS_URL="$redis" API_PORT="$api_port" \
    spawn_service "$tag-api" node apps/api/dist/main.js)
  (cd "$ROOT" && DATABASE_URL="$db" REDIS_URL="$redis" \
    spawn_service "$tag-worker" node apps/worker/dist/main.js)
  (cd "$ROOT/apps/web" && API_URL="http://127.0.0.1:$api_port" PORT="$web_port" \
    spawn_service "$tag-web" node ../../node_modules/next/dist/bin/next start -p "$web_port" -H 127.0.0.1)
  wait_for_http "http://127.0.0.1:$api_port/api/health" 60 || { tail -n 40 "$RUN_DIR/$tag-api.log" >&2; fail "the API did not become healthy"; }
  wait_for_http "http://127.0.0.1:$web_port/" 60 || { tail -n 40 "$RUN_DIR/$tag-web.log" >&2; fail "the web app did not start"; }
}

# Runs a service in a session of its own and records the pid of that session's leader: the
# process writes its own pid before exec'ing, so the pid file is right even when setsid forks.
spawn_service() { # name command...
  local name=$1
  shift
  rm -f "$RUN_DIR/$name.pid"
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$RUN_DIR/$name.pid" "$@" >"$RUN_DIR/$name.log" 2>&1 </dev/null &
  local i
  for ((i = 0; i < 50; i++)); do [ -s "$RUN_DIR/$name.pid" ] && return 0; sleep 0.1; done
  fail "could not start $name"
}

stop_stack() { # tag
  local f pid
  for f in "$RUN_DIR/$1"-*.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    # Each service runs in its own session (setsid): end the whole group, next-server included.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -f "$f"
  done
}

wait_for_http() { # url seconds
  local i
  for ((i = 0; i < $2 * 2; i++)); do
    node -e 'fetch(process.argv[1]).then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))' "$1" && return 0
    sleep 0.5
  done
  return 1
}
