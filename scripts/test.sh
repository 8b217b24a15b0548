#!/usr/bin/env bash
# The whole test suite, from a fresh clone: install → services → test databases → lint and
# architecture rules → type check → unit → integration (real PostgreSQL and Redis) → build →
# end-to-end in headless Chromium against the running stack. Exits non-zero on any failure.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/kubejourney_test}"
E2E_DATABASE_URL="${E2E_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/kubejourney_e2e}"
REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
E2E_API_PORT="${E2E_API_PORT:-4210}"
E2E_WEB_PORT="${E2E_WEB_PORT:-3210}"
export TEST_DATABASE_URL REDIS_URL
REPORTS="$RUN_DIR/reports"
rm -rf "$REPORTS" && mkdir -p "$REPORTS"

require_node
install_deps
ensure_postgres
ensure_redis
ensure_chromium
generate_prisma
prepare_database "$TEST_DATABASE_URL"
prepare_database "$E2E_DATABASE_URL"

say "Lint, formatting and architecture rules"
(cd "$ROOT" && npm run --silent lint)

say "Building (type-checks every package)"
build_all

say "Unit tests"
(cd "$ROOT" && npx vitest run --project unit --project web --reporter=default --reporter=json --outputFile.json="$REPORTS/unit.json")

say "Integration tests (PostgreSQL + Redis)"
(cd "$ROOT" && DATABASE_URL="$TEST_DATABASE_URL" npx vitest run --project integration --reporter=default --reporter=json --outputFile.json="$REPORTS/integration.json")

say "End-to-end tests (headless Chromium)"
trap 'stop_stack e2e' EXIT
start_stack "$E2E_API_PORT" "$E2E_WEB_PORT" "$E2E_DATABASE_URL" "$REDIS_URL" e2e
(cd "$ROOT/e2e" && E2E_BASE_URL="http://127.0.0.1:$E2E_WEB_PORT" npx vitest run --config vitest.config.ts --reporter=default --reporter=json --outputFile.json="$REPORTS/e2e.json")
stop_stack e2e

# One closing line for every suite together.
node -e '
  const fs = require("fs");
  let passed = 0, failed = 0, skipped = 0;
  for (const f of fs.readdirSync(process.argv[1])) {
    const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + f, "utf8"));
    passed += r.numPassedTests; failed += r.numFailedTests; skipped += r.numPendingTests + (r.numTodoTests || 0);
  }
  console.log(`\nkubejourney: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exit(failed ? 1 : 0);
' "$REPORTS"
