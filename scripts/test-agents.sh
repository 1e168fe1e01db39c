#!/usr/bin/env bash
# `npm run test:agents [-- --latest]`: every agent CLI's real-CLI suite (core) and worker suite
# against the scripted model, with the services up as `npm test` has them, then a
# compatibility table (one row per CLI, one column per capability) printed and written to
# docs/compatibility.md (scripts/agents-table.mjs maps the tests to the capabilities).
#
# --latest first installs each CLI's newest release into <agents folder>/latest
# (`agents-install.sh --latest`), then tests that folder with SWITCHYARD_AGENTS_ANY_VERSION=1,
# which makes the tests take the version installed there instead of requiring the pin.
# A failed install is a result, not an abort: the tests run on what is there and the table
# says so.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

kind=pinned
while (($#)); do
  case "$1" in
    --latest) kind=latest ;;
    -h | --help) echo "usage: npm run test:agents [-- --latest]"; exit 0 ;;
    *) echo "usage: npm run test:agents [-- --latest]" >&2; exit 2 ;;
  esac
  shift
done

# Every CLI pinned in scripts/agents.json (each a row of the suites below).
mapfile -t AGENTS < <(node -e 'for (const a of Object.keys(require("./scripts/agents.json").agents)) console.log(a)')
# The folder from the environment, else from .env (load_env below would blank an unset one).
agents_dir="${SWITCHYARD_AGENTS_DIR:-}"
[ -z "$agents_dir" ] && [ -f .env ] && agents_dir=$(sed -n 's/^SWITCHYARD_AGENTS_DIR=//p' .env | tail -n 1)
agents_dir="${agents_dir:-$HOME/.cache/switchyard/agents}"

reports="$ROOT/.data/reports"
mkdir -p "$reports"
install_log="$reports/agents-install-$kind.log"
install_status=0
if [ "$kind" = latest ]; then
  say "installing each CLI's newest release into $agents_dir/latest"
  SWITCHYARD_AGENTS_DIR="$agents_dir" bash scripts/agents-install.sh --latest 2>&1 | tee "$install_log" || install_status=$?
  agents_dir="$agents_dir/latest"
  export SWITCHYARD_AGENTS_ANY_VERSION=1
else
  SWITCHYARD_AGENTS_DIR="$agents_dir" bash scripts/agents-install.sh 2>&1 | tee "$install_log" || install_status=$?
fi

ensure_node_modules
services_up_for_run
load_env
export SWITCHYARD_AGENTS_DIR="$agents_dir"
generate_client

# Each suite runs every case for every CLI, a row each: how a CLI step ends (its proxy
# failing, its model refusing), the CLI through its provider, and its steps under the worker.
files=(
  packages/core/src/providers/step/cli-step-end.int.test.ts
  packages/core/src/providers/cli-providers.int.test.ts
  test/agent-cli.int.test.ts
)
report="$reports/agents-$kind.json"
rm -f "$report"
say "agent tests ($kind, $agents_dir)"
vitest_status=0
npx vitest run --project integration --reporter=default --reporter=json --outputFile="$report" "${files[@]}" || vitest_status=$?

node scripts/agents-table.mjs --kind "$kind" --report "$report" --agents-dir "$agents_dir" \
  --install-status "$install_status" --out docs/compatibility.md "${AGENTS[@]}"
[ "$install_status" = 0 ] && [ "$vitest_status" = 0 ]
