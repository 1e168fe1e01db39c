#!/usr/bin/env bash
# Installs the agent CLIs pinned in scripts/agents.json (Claude Code, Codex, Gemini CLI,
# OpenCode) and the Node 22 runtime they run under, each in its own npm prefix below one
# agents folder outside the repository, so every clone on this machine shares them:
#   ${SWITCHYARD_AGENTS_DIR:-$HOME/.cache/switchyard/agents}/{node,claude,codex,gemini,opencode}
# (SWITCHYARD_AGENTS_DIR is read from the environment, else from .env). Each prefix holds a
# stamp, switchyard-agent.json (package, version, entry), which is what
# packages/core/src/providers/locate-agent.ts reads; a prefix whose stamp matches the pin is
# left alone, so running this again is a no-op. Installs go to a temporary folder that
# replaces the prefix only once the CLI answered `--version` with the pinned version.
#
#   npm run agents:install [-- --only claude[,gemini...]] [-- --runtime-only] [-- --latest]
#
# --only   installs a subset (the runtime always comes along).
# --runtime-only installs the Node 22 runtime alone (what test/mcp-conformance.int.test.ts
#          runs the MCP conformance suite under).
# --latest installs each CLI's newest release into <agents folder>/latest instead (the
#          runtime stays at its pin), to try a release before bumping agents.json.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PINS="$ROOT/scripts/agents.json"
STAMP=switchyard-agent.json

say() { printf '[agents] %s\n' "$*"; }
die() { printf '[agents] error: %s\n' "$*" >&2; exit 1; }
usage() {
  cat <<'EOF'
usage: npm run agents:install [-- --only claude[,codex,gemini,opencode]] [-- --runtime-only] [-- --latest]
  --only    install a subset (the Node runtime always comes along)
  --runtime-only  install the Node runtime alone
  --latest  install each CLI's newest release into <agents folder>/latest
The agents folder is ${SWITCHYARD_AGENTS_DIR:-$HOME/.cache/switchyard/agents}.
EOF
}

# `npm run` exports its own settings (npm_config_*, npm_package_*); the installs below are
# separate projects and must not inherit them.
for var in $(compgen -e); do [[ $var == npm_* ]] && unset "$var"; done

if [ -z "${SWITCHYARD_AGENTS_DIR:-}" ] && [ -f "$ROOT/.env" ]; then
  SWITCHYARD_AGENTS_DIR=$(sed -n 's/^SWITCHYARD_AGENTS_DIR=//p' "$ROOT/.env" | tail -n 1)
fi
BASE="${SWITCHYARD_AGENTS_DIR:-$HOME/.cache/switchyard/agents}"
case "$BASE" in /*) ;; *) die "SWITCHYARD_AGENTS_DIR must be an absolute path, not '$BASE'" ;; esac

only=""
latest=0
runtime_only=0
while (($#)); do
  case "$1" in
    --only) [ $# -ge 2 ] || die "--only needs a list, e.g. --only claude,gemini"; only="$only,$2"; shift ;;
    --only=*) only="$only,${1#--only=}" ;;
    --latest) latest=1 ;;
    --runtime-only) runtime_only=1 ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
  esac
  shift
done

DIR="$BASE"
[ "$latest" = 1 ] && DIR="$BASE/latest"
mkdir -p "$DIR"

# One install at a time per agents folder (two clones may run this at once).
exec 9>"$DIR/.install.lock"
if ! flock -n 9; then
  say "another install is running in $DIR; waiting for it"
  flock 9
fi

# The plan, one line per prefix: name, package, version, bin name. The runtime comes first.
plan=$(node - "$PINS" "$only" "$runtime_only" <<'EOF'
const [file, only, runtimeOnly] = process.argv.slice(2);
const pins = JSON.parse(require("fs").readFileSync(file, "utf8"));
const names = Object.keys(pins.agents);
const wanted = only.split(",").filter(Boolean);
const unknown = wanted.filter((n) => !names.includes(n));
if (unknown.length) {
  console.error(`[agents] error: unknown agent ${unknown.join(", ")} (known: ${names.join(", ")})`);
  process.exit(1);
}
const line = (name, p) => [name, p.package, p.version, p.bin].join("\t");
console.log(line(pins.runtime.name, pins.runtime));
if (runtimeOnly === "1") process.exit(0);
for (const name of wanted.length ? [...new Set(wanted)] : names) console.log(line(name, pins.agents[name]));
EOF
)

# True when the prefix's stamp names this package and version and its entry is there.
installed() {
  node - "$1/$STAMP" "$2" "$3" <<'EOF'
const fs = require("fs");
const path = require("path");
const [stamp, pkg, version] = process.argv.slice(2);
try {
  const s = JSON.parse(fs.readFileSync(stamp, "utf8"));
  fs.accessSync(path.resolve(path.dirname(stamp), s.entry), fs.constants.X_OK);
  process.exit(s.package === pkg && s.version === version ? 0 : 1);
} catch {
  process.exit(1);
}
EOF
}

# Writes the stamp of a fresh install: the bin's real file, and whether it is a native
# program or a script for node. Prints the entry's path.
write_stamp() {
  node - "$1" "$2" "$3" "$4" "$5" <<'EOF'
const fs = require("fs");
const path = require("path");
const [prefix, name, pkg, version, bin] = process.argv.slice(2);
const dir = path.join(prefix, "node_modules", pkg);
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
const bins = typeof manifest.bin === "string" ? { [bin]: manifest.bin } : manifest.bin ?? {};
if (!bins[bin]) throw new Error(`${pkg}@${version} has no bin named ${bin}`);
const entry = fs.realpathSync(path.join(dir, bins[bin]));
const head = Buffer.alloc(4);
const fd = fs.openSync(entry, "r");
fs.readSync(fd, head, 0, 4, 0);
fs.closeSync(fd);
const kind = head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) ? "native" : "node";
const stamp = { name, package: pkg, version, entry: path.relative(prefix, entry), kind, installed_at: new Date().toISOString() };
fs.writeFileSync(path.join(prefix, "switchyard-agent.json"), JSON.stringify(stamp, null, 2) + "\n");
console.log(entry);
EOF
}

RUNTIME_BIN=""
summary=()
while IFS=$'\t' read -r name pkg version bin <&3; do
  if [ "$latest" = 1 ] && [ -n "$RUNTIME_BIN" ]; then
    version=$(npm view "$pkg" version 2>/dev/null) || die "cannot ask the registry for the newest $pkg"
  fi
  prefix="$DIR/$name"
  if installed "$prefix" "$pkg" "$version"; then
    say "$name: $pkg@$version is installed ($prefix)"
  else
    say "$name: installing $pkg@$version into $prefix"
    tmp="$DIR/.$name.installing.$$"
    rm -rf "$tmp"
    mkdir -p "$tmp/.home"
    printf '{ "private": true }\n' >"$tmp/package.json"
    # npm and the packages' install scripts run under the runtime once it is there (Claude
    # Code's engines want Node 22; its postinstall puts the native binary in place).
    if ! (cd "$tmp" && PATH="${RUNTIME_BIN:+$RUNTIME_BIN:}$PATH" npm install --prefix "$tmp" \
      --no-audit --no-fund --no-update-notifier --loglevel=error --save-exact "$pkg@$version" </dev/null); then
      rm -rf "$tmp"
      die "npm could not install $pkg@$version"
    fi
    entry=$(write_stamp "$tmp" "$name" "$pkg" "$version" "$bin")
    kind=$(sed -n 's/.*"kind": "\(.*\)".*/\1/p' "$tmp/$STAMP")
    if [ "$kind" = node ]; then runner=("${RUNTIME_BIN:-$(dirname "$entry")}/node" "$entry"); else runner=("$entry"); fi
    reported=$(HOME="$tmp/.home" PATH="${RUNTIME_BIN:+$RUNTIME_BIN:}$PATH" timeout 120 "${runner[@]}" --version </dev/null 2>&1 | head -n 5) || true
    rm -rf "$tmp/.home"
    if [[ $reported != *"$version"* ]]; then
      rm -rf "$tmp"
      die "$name: '$entry --version' answered '$reported', expected $version"
    fi
    old="$DIR/.$name.old.$$"
    [ -e "$prefix" ] && mv "$prefix" "$old"
    mv "$tmp" "$prefix"
    rm -rf "$old"
    say "$name: $pkg@$version ready ($reported)"
  fi
  if [ -z "$RUNTIME_BIN" ]; then
    RUNTIME_BIN="$(dirname "$(sed -n 's/.*"entry": "\(.*\)".*/\1/p' "$prefix/$STAMP")")"
    RUNTIME_BIN="$prefix/$RUNTIME_BIN"
  fi
  summary+=("$name $version")
done 3<<<"$plan"

say "agents folder: $DIR (${summary[*]})"
