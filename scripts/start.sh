#!/usr/bin/env bash
# `npm start`: installs what is missing, starts PostgreSQL and Redis, migrates and seeds the
# database, builds the dashboard, then runs web and worker in the foreground until Ctrl-C,
# and stops everything it started.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

ensure_node_modules
services_were_up=false
services_running && services_were_up=true
bash scripts/services.sh up
# From here on, Ctrl-C or a failure stops whatever this script started.
pids=()
cleanup() {
  trap - INT TERM EXIT
  say "stopping"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$services_were_up" = false ]; then bash scripts/services.sh down; fi
}
trap cleanup INT TERM EXIT
load_env
# A .env written before SWITCHYARD_EGRESS_ALLOW existed: loopback, as a fresh one has it.
export SWITCHYARD_EGRESS_ALLOW="${SWITCHYARD_EGRESS_ALLOW-127.0.0.0/8,::1,localhost}"
# A .env written before the demo model existed: its port, as a fresh one has it.
export SWITCHYARD_DEMO_MODEL_PORT="${SWITCHYARD_DEMO_MODEL_PORT-56390}"
if (exec 3<>"/dev/tcp/127.0.0.1/$WEB_PORT") 2>/dev/null; then
  say "error: port $WEB_PORT is already in use; stop what listens there or set WEB_PORT in .env"
  exit 1
fi
generate_client
migrate_deploy
say "seeding the demo team"
# The seed makes the demo admin once and never resets its password; it says whether
# SEED_ADMIN_PASSWORD still signs it in, so the last lines below say what is true.
seed_output=$(node --import tsx packages/db/src/seed-main.ts)
printf '%s\n' "$seed_output"
say "building the dashboard and the switchyard command"
(cd apps/web && node ../../node_modules/next/dist/bin/next build >/dev/null)
node packages/cli/bin/build.mjs >/dev/null


node --import tsx apps/worker/src/main.ts &
pids+=($!)
(cd apps/web && exec node ../../node_modules/next/dist/bin/next start -p "$WEB_PORT" -H 127.0.0.1) &
pids+=($!)

ready=false
for _ in $(seq 1 150); do
  if curl -fsS -o /dev/null "http://127.0.0.1:$WEB_PORT/login" 2>/dev/null; then ready=true; break; fi
  sleep 0.2
done
if [ "$ready" = false ]; then
  say "error: the dashboard did not come up on port $WEB_PORT"
  exit 1
fi
say "Switchyard is running at http://127.0.0.1:$WEB_PORT"
if grep -q "password is SEED_ADMIN_PASSWORD" <<<"$seed_output"; then
  say "sign in as $SEED_ADMIN_EMAIL with password $SEED_ADMIN_PASSWORD"
else
  say "sign in as $SEED_ADMIN_EMAIL with the password you set for it (SEED_ADMIN_PASSWORD no longer signs it in)"
fi
say "press Ctrl-C to stop"
wait -n "${pids[@]}" || true
