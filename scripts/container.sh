#!/usr/bin/env bash
# Entry point of the Docker image: `web` migrates, seeds and serves; `worker` runs runs.
#
# Workers scale (`docker compose up --scale worker=N`): each worker container takes the first
# free slot 0, 1, 2, ... by locking a file in the volume all worker containers of this Docker
# host share (/var/lib/switchyard/slots), and holds that lock for as long as it lives (the
# worker inherits the descriptor; the step launcher closes it before any step starts). The
# slot gives the container a step-uid range no other worker container on this host uses:
# containers share the host kernel, where a uid's process limit counts across containers.
# Its worker id is its container's host name (the container id, unique per container).
set -euo pipefail

# The uids one worker takes: WORKER_CONCURRENCY for steps, then SWITCHYARD_CONNECTORS_MAX for
# stdio connectors (apps/worker/src/sandbox-boot.ts), from SWITCHYARD_STEP_UID_BASE on.
claim_worker_slot() {
  local slots=${SWITCHYARD_SLOTS_DIR:-/var/lib/switchyard/slots}
  local max=${SWITCHYARD_WORKER_SLOTS:-64}
  local first=${SWITCHYARD_STEP_UID_BASE:-60000}
  local per=$(( ${WORKER_CONCURRENCY:-4} + ${SWITCHYARD_CONNECTORS_MAX:-32} ))
  mkdir -p "$slots"
  local n
  for ((n = 0; n < max; n++)); do
    exec {slot_fd}<>"$slots/$n.lock"
    if flock --nonblock "$slot_fd"; then
      export SWITCHYARD_STEP_UID_BASE=$(( first + n * per ))
      export SWITCHYARD_WORKER_ID="worker-$(hostname)"
      echo "container.sh: worker slot $n, step uids $SWITCHYARD_STEP_UID_BASE-$(( SWITCHYARD_STEP_UID_BASE + per - 1 )), id $SWITCHYARD_WORKER_ID" >&2
      return 0
    fi
    exec {slot_fd}>&-
  done
  echo "container.sh: all $max worker slots in $slots are taken; raise SWITCHYARD_WORKER_SLOTS" >&2
  exit 1
}

[ "${CONTAINER_SH_FUNCTIONS_ONLY:-}" = 1 ] && return 0

case "${1:-}" in
  web)
    cd /app
    timeout 180 node node_modules/prisma/build/index.js migrate deploy
    node --import tsx packages/db/src/seed-main.ts
    cd apps/web && exec node ../../node_modules/next/dist/bin/next start -p "${WEB_PORT:-3000}" -H 0.0.0.0
    ;;
  worker)
    cd /app
    claim_worker_slot
    mkdir -p "$SWITCHYARD_WORKSPACES_DIR"
    exec node --import tsx apps/worker/src/main.ts
    ;;
  *) echo "usage: container.sh web|worker" >&2; exit 1 ;;
esac
