#!/usr/bin/env bash
# Entry point of the Docker image: `web` migrates, seeds and serves; `worker` runs runs.
set -euo pipefail
cd /app
case "${1:-}" in
  web)
    timeout 180 node node_modules/prisma/build/index.js migrate deploy
    node --import tsx packages/db/src/seed-main.ts
    cd apps/web && exec node ../../node_modules/next/dist/bin/next start -p "${WEB_PORT:-3000}" -H 0.0.0.0
    ;;
  worker)
    mkdir -p "$SWITCHYARD_WORKSPACES_DIR"
    exec node --import tsx apps/worker/src/main.ts
    ;;
  *) echo "usage: container.sh web|worker" >&2; exit 1 ;;
esac
