#!/usr/bin/env bash
# The command of every database container of docker-compose.yml: `run.sh monitor|postgres [pg_autoctl create
# options]`. Creates the monitor or the node (nothing to do when its data directory is already initialized),
# applies this deployment's failure-detection settings (monitor.conf to the monitor, keeper.conf to a node's
# keeper), then runs it. The failover drill (scripts/failover-drill/formation.ts) applies the same files the same
# way, so what it measures is what this deploys.
set -euo pipefail
role="$1"
shift
settings=/etc/hotel-pg-auto-failover

pg_autoctl create "$role" "$@"
case "$role" in
  monitor)
    cp "$settings/monitor.conf" "$PGDATA/hotel-monitor.conf"
    grep -qxF "include 'hotel-monitor.conf'" "$PGDATA/postgresql.conf" ||
      echo "include 'hotel-monitor.conf'" >>"$PGDATA/postgresql.conf"
    ;;
  postgres)
    sed -e 's/#.*//' "$settings/keeper.conf" | while IFS='=' read -r name value; do
      name="$(echo "$name" | xargs)"
      value="$(echo "$value" | xargs)"
      if [ -n "$name" ]; then pg_autoctl config set --pgdata "$PGDATA" "$name" "$value" >/dev/null; fi
    done
    ;;
  *)
    echo "run.sh: monitor or postgres, not $role" >&2
    exit 2
    ;;
esac
exec pg_autoctl run --pgdata "$PGDATA"
