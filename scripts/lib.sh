# Shared by start.sh and test.sh: install what is missing, bring up services, load .env.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export NEXT_TELEMETRY_DISABLED=1 CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1

say() { printf '\033[1m[switchyard]\033[0m %s\n' "$*"; }

ensure_node_modules() {
  local stamp="$ROOT/node_modules/.switchyard-lock"
  if [ ! -f "$stamp" ] || ! cmp -s "$ROOT/package-lock.json" "$stamp"; then
    say "installing npm dependencies (npm ci)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$ROOT/package-lock.json" "$stamp"
  fi
}

load_env() {
  set -a
  # shellcheck disable=SC1091
  . "$ROOT/.env"
  set +a
}

prisma() { (cd "$ROOT" && timeout 180 node node_modules/prisma/build/index.js "$@"); }

generate_client() {
  say "generating the Prisma client"
  prisma generate >/dev/null
}

# Quiet when it works (the count and what was applied); on failure Prisma's whole output and
# a non-zero status, so a half-migrated database never goes unnoticed.
migrate_deploy() {
  say "applying migrations"
  local out status=0
  out=$(prisma migrate deploy 2>&1) || status=$?
  if [ "$status" -ne 0 ]; then
    printf '%s\n' "$out" >&2
    if [ "$status" -eq 124 ]; then say "error: prisma migrate deploy timed out" >&2
    else say "error: prisma migrate deploy failed (exit $status), see above" >&2; fi
    return "$status"
  fi
  printf '%s\n' "$out" | grep -E "applied|No pending|migrations found" || true
}

# True when both services already answer (so whoever brings them up now must not stop them).
services_running() {
  local status
  status=$(bash "$ROOT/scripts/services.sh" status 2>/dev/null) || return 1
  [[ "$status" == *"postgres: up"* && "$status" == *"redis: up"* ]]
}

# Brings the services up for a test run; the ones this run started are stopped again when it
# ends, whatever the outcome.
services_up_for_run() {
  local were_up=false
  services_running && were_up=true
  bash "$ROOT/scripts/services.sh" up
  [ "$were_up" = false ] && trap 'bash "$ROOT/scripts/services.sh" down >/dev/null 2>&1 || true' EXIT
  return 0
}
