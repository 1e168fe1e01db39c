#!/usr/bin/env bash
# Gives Switchyard a real PostgreSQL and Redis, both with passwords.
#   scripts/services.sh up | down | status | env
# With a Docker engine: `docker compose up -d postgres redis`. Otherwise the Debian binaries,
# installed with apt-get when missing (as root), run in the project-local .data/ folder on
# the ports written in .env. Idempotent; `down` stops only what `up` started.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$ROOT/.data"
cd "$ROOT"

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] error: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------------------------------
# .env: made from .env.example on first run, with fresh secrets and free ports.
# ---------------------------------------------------------------------------------------
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port_from() {
  local p=$1
  while ! port_free "$p"; do p=$((p + 1)); done
  echo "$p"
}
secret() { node -e 'process.stdout.write(require("crypto").randomBytes(Number(process.argv[1])).toString(process.argv[2]))' "$1" "$2"; }

ensure_env() {
  [ -f "$ROOT/.env" ] && return 0
  [ -f "$ROOT/.env.example" ] || die ".env.example is missing"
  local pg_port redis_port pg_pw redis_pw
  pg_port=$(free_port_from 55432)
  redis_port=$(free_port_from 56379)
  pg_pw=$(secret 18 hex)
  redis_pw=$(secret 18 hex)
  local tmp
  tmp=$(mktemp "$ROOT/.env.XXXXXX")
  chmod 600 "$tmp"
  sed \
    -e "s|^SWITCHYARD_PG_PORT=.*|SWITCHYARD_PG_PORT=$pg_port|" \
    -e "s|^SWITCHYARD_REDIS_PORT=.*|SWITCHYARD_REDIS_PORT=$redis_port|" \
    -e "s|^POSTGRES_PASSWORD=.*|POSTGRES_PASSWORD=$pg_pw|" \
    -e "s|^REDIS_PASSWORD=.*|REDIS_PASSWORD=$redis_pw|" \
    -e "s|<POSTGRES_PASSWORD>|$pg_pw|g" \
    -e "s|<SWITCHYARD_PG_PORT>|$pg_port|g" \
    -e "s|<REDIS_PASSWORD>|$redis_pw|g" \
    -e "s|<SWITCHYARD_REDIS_PORT>|$redis_port|g" \
    -e "s|^AUTH_SECRET=.*|AUTH_SECRET=$(secret 32 base64url)|" \
    -e "s|^SWITCHYARD_MASTER_KEY=.*|SWITCHYARD_MASTER_KEY=$(secret 32 base64)|" \
    -e "s|^SEED_ADMIN_PASSWORD=.*|SEED_ADMIN_PASSWORD=$(secret 9 base64url)|" \
    "$ROOT/.env.example" >"$tmp"
  grep -q '=<generated>' "$tmp" && { rm -f "$tmp"; die "a <generated> value in .env.example has no generator"; }
  mv "$tmp" "$ROOT/.env"
  log "wrote .env with fresh secrets (postgres :$pg_port, redis :$redis_port)"
}

load_env() {
  ensure_env
  set -a
  # shellcheck disable=SC1091
  . "$ROOT/.env"
  set +a
}

# ---------------------------------------------------------------------------------------
# Docker path
# ---------------------------------------------------------------------------------------
docker_ok() {
  [ "${SWITCHYARD_SERVICES:-}" = "native" ] && return 1
  command -v docker >/dev/null 2>&1 || return 1
  timeout 5 docker info >/dev/null 2>&1 || return 1
  timeout 5 docker compose version >/dev/null 2>&1 || return 1
}

# ---------------------------------------------------------------------------------------
# Native path
# ---------------------------------------------------------------------------------------
pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
  done
  return 1
}

install_missing() {
  local need=()
  pg_bin >/dev/null || need+=(postgresql)
  command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
  command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
  # A worker running as root filters its sandboxes' network with nftables (docs/sandbox.md).
  if [ "$(id -u)" = 0 ] && [ ! -x /usr/sbin/nft ] && ! command -v nft >/dev/null 2>&1; then need+=(nftables); fi
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "installing ${need[*]} with apt-get"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    die "missing ${need[*]}. Install them (Debian/Ubuntu: sudo apt-get install -y ${need[*]}) or run Docker, then retry."
  fi
}

# As root, PostgreSQL must run as the `postgres` user, which must be able to reach its data
# folder. When the checkout sits below a folder that user cannot enter (e.g. a 0700 temp
# folder), the data lives in /var/tmp and .data/pg-home links to it.
as_pg() {
  if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}
pg_home() {
  if [ "$(id -u)" != 0 ]; then echo "$DATA/pg"; return; fi
  if runuser -u postgres -- test -x "$DATA" 2>/dev/null; then echo "$DATA/pg"; return; fi
  local key
  key=$(printf '%s' "$ROOT" | sha256sum | cut -c1-12)
  echo "/var/tmp/switchyard-pg-$key"
}

pg_up() {
  local bin home
  bin=$(pg_bin) || die "PostgreSQL binaries not found"
  home=$(pg_home)
  mkdir -p "$home" "$home/run"
  [ "$home" != "$DATA/pg" ] && ln -sfn "$home" "$DATA/pg-home"
  [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$home" && chmod 700 "$home"
  if [ ! -f "$home/data/PG_VERSION" ]; then
    log "initialising PostgreSQL in $home/data"
    local pwfile="$home/pwfile"
    ( umask 077; printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile" )
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$pwfile"
    as_pg "$bin/initdb" -D "$home/data" -U "$POSTGRES_USER" --pwfile="$pwfile" \
      --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
  fi
  if as_pg "$bin/pg_ctl" -D "$home/data" status >/dev/null 2>&1; then
    log "postgres already running on :$SWITCHYARD_PG_PORT"
  else
    as_pg "$bin/pg_ctl" -D "$home/data" -l "$home/postgres.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $SWITCHYARD_PG_PORT -k $home/run -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
      start >/dev/null || { tail -20 "$home/postgres.log" >&2; die "postgres did not start"; }
    log "postgres started on 127.0.0.1:$SWITCHYARD_PG_PORT"
  fi
  local exists
  exists=$(PGPASSWORD="$POSTGRES_PASSWORD" psql -h 127.0.0.1 -p "$SWITCHYARD_PG_PORT" -U "$POSTGRES_USER" -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname='$POSTGRES_DB'")
  if [ "$exists" != "1" ]; then
    PGPASSWORD="$POSTGRES_PASSWORD" psql -q -h 127.0.0.1 -p "$SWITCHYARD_PG_PORT" -U "$POSTGRES_USER" -d postgres \
      -c "CREATE DATABASE \"$POSTGRES_DB\"" >/dev/null
    log "created database $POSTGRES_DB"
  fi
}

pg_down() {
  local bin home
  bin=$(pg_bin) || return 0
  home=$(pg_home)
  [ -f "$home/data/PG_VERSION" ] || return 0
  if as_pg "$bin/pg_ctl" -D "$home/data" status >/dev/null 2>&1; then
    as_pg "$bin/pg_ctl" -D "$home/data" -m fast -w stop >/dev/null && log "postgres stopped"
  fi
}

redis_up() {
  mkdir -p "$DATA/redis"
  local pidfile="$DATA/redis/redis.pid"
  if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    log "redis already running on :$SWITCHYARD_REDIS_PORT"
    return 0
  fi
  local conf="$DATA/redis/redis.conf"
  ( umask 077
    cat >"$conf" <<CONF
bind 127.0.0.1
port $SWITCHYARD_REDIS_PORT
requirepass $REDIS_PASSWORD
save ""
appendonly no
daemonize yes
pidfile $pidfile
logfile $DATA/redis/redis.log
dir $DATA/redis
maxmemory-policy noeviction
CONF
  )
  redis-server "$conf" || die "redis did not start (see $DATA/redis/redis.log)"
  local i
  for i in $(seq 1 50); do
    REDISCLI_AUTH="$REDIS_PASSWORD" redis-cli -p "$SWITCHYARD_REDIS_PORT" ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  log "redis started on 127.0.0.1:$SWITCHYARD_REDIS_PORT"
}

redis_down() {
  local pidfile="$DATA/redis/redis.pid"
  [ -f "$pidfile" ] || return 0
  local pid
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    local i
    for i in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    log "redis stopped"
  fi
  rm -f "$pidfile"
}

cmd=${1:-up}
load_env
mkdir -p "$DATA"
case "$cmd" in
  up)
    if docker_ok; then
      log "Docker engine found: docker compose up -d postgres redis"
      echo docker >"$DATA/mode"
      docker compose up -d --wait postgres redis
    else
      echo native >"$DATA/mode"
      install_missing
      pg_up
      redis_up
    fi
    ;;
  down)
    if [ "$(cat "$DATA/mode" 2>/dev/null)" = docker ]; then
      docker compose stop postgres redis
    else
      redis_down
      pg_down
    fi
    ;;
  status)
    printf 'mode: %s\n' "$(cat "$DATA/mode" 2>/dev/null || echo none)"
    if PGPASSWORD="$POSTGRES_PASSWORD" psql -h 127.0.0.1 -p "$SWITCHYARD_PG_PORT" -U "$POSTGRES_USER" -d postgres -tAc 'select 1' >/dev/null 2>&1; then
      echo "postgres: up on 127.0.0.1:$SWITCHYARD_PG_PORT"
    else
      echo "postgres: down"
    fi
    if REDISCLI_AUTH="$REDIS_PASSWORD" redis-cli -p "$SWITCHYARD_REDIS_PORT" ping 2>/dev/null | grep -q PONG; then
      echo "redis: up on 127.0.0.1:$SWITCHYARD_REDIS_PORT"
    else
      echo "redis: down"
    fi
    ;;
  env) ensure_env ;;
  *) die "usage: scripts/services.sh up|down|status|env" ;;
esac
