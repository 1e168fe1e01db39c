#!/usr/bin/env bash
# `npm start`: installs what is missing, starts PostgreSQL and Redis, migrates and seeds the
# database, builds the dashboard, then runs web and worker in the foreground until Ctrl-C,
# and stops everything it started.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_node_modules
services_were_up=false
if bash scripts/services.sh status 2>/dev/null | grep -q "postgres: up" &&
  bash scripts/services.sh status 2>/dev/null | grep -q "redis: up"; then
  services_were_up=true
fi
bash scripts/services.sh up
load_env
generate_client
migrate_deploy
say "seeding the demo team"
node --import tsx packages/db/src/seed-main.ts
say "building the dashboard"
(cd apps/web && node ../../node_modules/next/dist/bin/next build >/dev/null)

pids=()
cleanup() {
  trap - INT TERM EXIT
  say "stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$services_were_up" = false ]; then bash scripts/services.sh down; fi
}
trap cleanup INT TERM EXIT

node --import tsx apps/worker/src/main.ts &
pids+=($!)
(cd apps/web && exec node ../../node_modules/next/dist/bin/next start -p "$WEB_PORT" -H 127.0.0.1) &
pids+=($!)

for _ in $(seq 1 100); do
  curl -fsS -o /dev/null "http://127.0.0.1:$WEB_PORT/login" 2>/dev/null && break
  sleep 0.2
done
say "Switchyard is running at http://127.0.0.1:$WEB_PORT"
say "sign in as $SEED_ADMIN_EMAIL with password $SEED_ADMIN_PASSWORD"
say "press Ctrl-C to stop"
wait -n "${pids[@]}" || true
