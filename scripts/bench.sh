#!/usr/bin/env bash
# `npm run bench [-- <bench>...]`: starts the services, then prints the benchmark table (ratios
# to baselines); names given (validate, spawn, runs, proxy, tool-call, agent, ...) run only those.
# With SWITCHYARD_BENCH_DATABASE_URL and SWITCHYARD_BENCH_REDIS_URL set, the benches use that
# PostgreSQL (a role that may create databases) and Redis instead of the project's own, which
# are then not started: how to bench with workers on other hosts (docs/deploy.md).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
ensure_node_modules
remote_db=${SWITCHYARD_BENCH_DATABASE_URL:-}
remote_redis=${SWITCHYARD_BENCH_REDIS_URL:-}
if [ -n "$remote_db" ] || [ -n "$remote_redis" ]; then
  if [ -z "$remote_db" ] || [ -z "$remote_redis" ]; then
    say "error: set both SWITCHYARD_BENCH_DATABASE_URL and SWITCHYARD_BENCH_REDIS_URL, or neither" >&2
    exit 2
  fi
else
  bash scripts/services.sh up >/dev/null
fi
load_env
if [ -n "$remote_db" ]; then
  export DATABASE_URL=$remote_db REDIS_URL=$remote_redis
  say "benchmarking against PostgreSQL at $(node -e 'const u=new URL(process.argv[1]);console.log(u.host)' "$remote_db") and Redis at $(node -e 'const u=new URL(process.argv[1]);console.log(u.host)' "$remote_redis")"
fi
generate_client
node --import tsx bench/run.ts "$@"
