#!/usr/bin/env bash
# `npm run bench`: starts the services, then prints the benchmark table (ratios to baselines).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
ensure_node_modules
bash scripts/services.sh up >/dev/null
load_env
generate_client
node --import tsx bench/run.ts
