#!/usr/bin/env bash
# `npm test`: the whole suite on a fresh machine. Installs what is missing, starts the
# services the tests need, then lint, typecheck, unit and integration tests (Vitest), the
# fault-injection tests (Vitest's chaos project) and browser tests (Playwright with Debian's
# Chromium), and ends with one summary line.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian's chromium for the browser tests"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    say "error: the browser tests need Chromium: sudo apt-get install -y chromium"
    exit 1
  fi
fi
ensure_node_modules
services_up_for_run
load_env
# The egress rule with no exceptions: a test whose servers are on loopback says so itself.
export SWITCHYARD_EGRESS_ALLOW=
generate_client

reports="$ROOT/.data/reports"
rm -rf "$reports" && mkdir -p "$reports"
status=0

say "lint"
# Typed linting of the whole repository holds every program at once: past V8's default heap (4 GiB here).
{ NODE_OPTIONS=--max-old-space-size=8192 npx eslint --max-warnings 0 . && npx prettier --check --log-level warn .; } || { status=1; echo lint >>"$reports/checks-failed"; }
say "typecheck"
{ npx turbo run typecheck --output-logs=errors-only && npx tsc -p tsconfig.json; } || { status=1; echo typecheck >>"$reports/checks-failed"; }

# The pinned agent CLIs the provider tests run, into the shared agents folder (once per
# machine; a later run finds them by their stamps). A failed install is not fatal here:
# each provider's tests say they skip and why.
say "agent CLIs (npm run agents:install; cached in ${SWITCHYARD_AGENTS_DIR:-~/.cache/switchyard/agents})"
bash scripts/agents-install.sh || say "warning: installing the agent CLIs failed; their tests will say they skip"

say "unit and integration tests"
npx vitest run --reporter=default --reporter=json --outputFile="$reports/vitest.json" || status=1

# Faults injected into real processes and services (workers SIGKILLed, a private Redis and
# PostgreSQL restarted mid-run): the slow part of the suite, also `npm run test:chaos`.
say "fault-injection tests (npm run test:chaos)"
SWITCHYARD_CHAOS=1 npx vitest run --project chaos --reporter=default --reporter=json --outputFile="$reports/chaos.json" || status=1

say "building the dashboard for the browser tests"
if (cd apps/web && node ../../node_modules/next/dist/bin/next build >"$reports/next-build.log" 2>&1); then
  say "browser tests"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" \
    npx playwright test -c apps/web/playwright.config.ts --reporter=list,json || status=1
else
  cat "$reports/next-build.log"
  status=1
fi

node scripts/test-summary.mjs "$reports" || status=1
exit $status
