# shellcheck shell=bash disable=SC2034  # sourced; the variables are used by the scripts
# Shared settings for start.sh / stop.sh (sourced, not executed).
# Every path and port can be overridden from the environment.
KAFKA_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_HOME_DIR="${KAFKA_HOME_DIR:-$HOME/.cache/notify-kafka}"
KAFKA_LIBS="$KAFKA_HOME_DIR/libs"
KAFKA_DATA_DIR="${KAFKA_DATA_DIR:-/tmp/notify-kafka-data}"
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_PID_FILE="$KAFKA_DATA_DIR/kafka.pid"
KAFKA_LOG_DIR="$KAFKA_DATA_DIR/logs"
KAFKA_BOOTSTRAP="127.0.0.1:$KAFKA_PORT"

die() { echo "kafka: ERROR: $*" >&2; exit 1; }

# Prints the pid recorded by start.sh if that process is still alive and is
# really our broker (guards against a stale pid file whose pid was reused).
kafka_running_pid() {
  [[ -f "$KAFKA_PID_FILE" ]] || return 1
  local pid; pid="$(cat "$KAFKA_PID_FILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null || return 1
  ps -o args= -p "$pid" 2>/dev/null | grep -q 'kafka\.Kafka' || return 1
  echo "$pid"
}
