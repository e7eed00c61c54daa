#!/usr/bin/env bash
# Stops the broker started by start.sh (found via its pid file) and waits for it
# to exit. --clean also deletes KAFKA_DATA_DIR (topics, cluster id, logs), so the
# next start formats fresh storage. The jar cache is kept.
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

clean=false
case "${1:-}" in
  --clean) clean=true ;;
  "") ;;
  *) die "usage: $0 [--clean]" ;;
esac

if pid="$(kafka_running_pid)"; then
  echo "kafka: stopping broker (pid $pid)" >&2
  kill -TERM "$pid"
  # SIGTERM triggers a controlled shutdown that flushes logs; give it time
  # before resorting to SIGKILL.
  # (kafka_running_pid rather than kill -0: an unreaped zombie still passes kill -0.)
  for _ in $(seq 1 60); do
    kafka_running_pid >/dev/null || break
    sleep 0.5
  done
  if kafka_running_pid >/dev/null; then
    echo "kafka: broker did not exit within 30s, killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
    sleep 1
  fi
else
  echo "kafka: no broker started by start.sh is running" >&2
fi
rm -f "$KAFKA_PID_FILE"

if $clean; then
  echo "kafka: removing $KAFKA_DATA_DIR" >&2
  rm -rf "$KAFKA_DATA_DIR"
fi
