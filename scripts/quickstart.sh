#!/usr/bin/env bash
# One command from a fresh clone to a running KubeJourney with demo accounts:
# install → services → database (migrate + seed) → build → start api, worker and web.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DATABASE_URL="${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/kubejourney}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
API_PORT="${API_PORT:-4000}"
WEB_PORT="${WEB_PORT:-3000}"
export DATABASE_URL REDIS_URL

require_node
install_deps
ensure_postgres
ensure_redis
generate_prisma
prepare_database "$DATABASE_URL"
say "Seeding demo data"
(cd "$ROOT" && npx tsx prisma/seed.ts)
build_all
start_stack "$API_PORT" "$WEB_PORT" "$DATABASE_URL" "$REDIS_URL" app

cat <<MSG

  KubeJourney is running:  http://localhost:$WEB_PORT
  API docs (OpenAPI):      http://localhost:$WEB_PORT/api/docs
  Logs:                    .run/app-{api,worker,web}.log
  Stop it:                 npm run stop

MSG
