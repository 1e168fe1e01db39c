#!/usr/bin/env bash
# `npm run bench [-- <bench>...]`: starts the services, then prints the benchmark table (ratios
# to baselines); names given (validate, spawn, runs, proxy, tool-call, agent) run only those.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
ensure_node_modules
bash scripts/services.sh up >/dev/null
load_env
generate_client
node --import tsx bench/run.ts "$@"
