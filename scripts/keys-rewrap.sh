#!/usr/bin/env bash
# Re-wraps every stored credential under the current master key (see docs/connectors.md,
# "Rotating the master key"). Reads .env when there is one, else the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f .env ]; then set -a; . ./.env; set +a; fi
exec node --import tsx apps/worker/src/keys-rewrap.ts
