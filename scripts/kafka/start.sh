#!/usr/bin/env bash
# Starts a real single-node Apache Kafka (KRaft, combined broker+controller) on
# 127.0.0.1 without Docker. Jars come from Maven Central via pom.xml and are
# cached, so only the first run needs mvn. Idempotent: if our broker is already
# up it just reports it. On success prints KAFKA_BROKERS=127.0.0.1:<port>.
#
# Env: KAFKA_HOME_DIR (jar cache, default ~/.cache/notify-kafka)
#      KAFKA_DATA_DIR (config, logs, data, pid; default /tmp/notify-kafka-data)
#      KAFKA_PORT (9092) KAFKA_CONTROLLER_PORT (9093)
#      KAFKA_HEAP_OPTS (-Xmx512m) KAFKA_START_TIMEOUT (seconds, 90)
set -euo pipefail
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v java >/dev/null || die "java not found on PATH (Kafka needs Java 17+; e.g. apt-get install openjdk-17-jre-headless)"

TIMEOUT="${KAFKA_START_TIMEOUT:-90}"
PROPS="$KAFKA_DATA_DIR/config/server.properties"
CLIENT_PROPS="$KAFKA_DATA_DIR/config/client.properties"
TOOL=(java -Xmx256m -cp "$KAFKA_LIBS/*")

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# "Answering" means the metadata API works, not just that the port is bound:
# listing topics needs a broker that has joined the KRaft quorum.
probe() {
  port_open "$KAFKA_PORT" || return 1
  timeout 30 "${TOOL[@]}" org.apache.kafka.tools.TopicCommand \
    --bootstrap-server "$KAFKA_BOOTSTRAP" --command-config "$CLIENT_PROPS" --list >/dev/null 2>&1
}

ready() { echo "KAFKA_BROKERS=$KAFKA_BOOTSTRAP"; exit 0; }

if pid="$(kafka_running_pid)" && probe; then
  echo "kafka: already running (pid $pid)" >&2
  ready
fi

# The stamp ties the cache to pom.xml, so changing the Kafka version refetches;
# copying to a temp dir first means an interrupted fetch is never mistaken for a cache.
stamp="$(cksum <"$KAFKA_SCRIPT_DIR/pom.xml")"
if [[ "$(cat "$KAFKA_LIBS/.stamp" 2>/dev/null)" != "$stamp" ]]; then
  command -v mvn >/dev/null || die "mvn not found on PATH (needed once to fetch the Kafka jars; e.g. apt-get install maven)"
  echo "kafka: fetching jars into $KAFKA_LIBS" >&2
  tmp="$KAFKA_LIBS.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$KAFKA_HOME_DIR"
  mvn -q -B -f "$KAFKA_SCRIPT_DIR/pom.xml" dependency:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$tmp" >"$KAFKA_HOME_DIR/mvn.log" 2>&1 \
    || { cat "$KAFKA_HOME_DIR/mvn.log" >&2; rm -rf "$tmp"; die "mvn failed to fetch the Kafka jars"; }
  echo "$stamp" >"$tmp/.stamp"
  rm -rf "$KAFKA_LIBS" && mv "$tmp" "$KAFKA_LIBS"
fi

mkdir -p "$KAFKA_DATA_DIR/config" "$KAFKA_LOG_DIR"
# Rewritten every start so port/dir overrides always apply. Static voters (not
# --standalone's dynamic quorum) because then no endpoint is baked into storage
# and the controller port can change between runs.
cat >"$PROPS" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$KAFKA_DATA_DIR/kraft
num.partitions=1
auto.create.topics.enable=true
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# The cleaner looks for compactable logs every second, not every 15 s: the erasure tombstones test
# waits for compaction (ADR 0179).
log.cleaner.backoff.ms=1000
# One node: 50 partitions per internal topic only slow down the first group join.
offsets.topic.num.partitions=1
transaction.state.log.num.partitions=1
EOF
# Short client timeouts so a probe against a booting broker fails fast and is retried.
printf 'request.timeout.ms=3000\ndefault.api.timeout.ms=5000\n' >"$CLIENT_PROPS"

started=false
if ! pid="$(kafka_running_pid)"; then
  rm -f "$KAFKA_PID_FILE"
  for p in "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"; do
    port_open "$p" && die "port $p on 127.0.0.1 is already in use by another process (not a broker started by this script); stop it or set KAFKA_PORT/KAFKA_CONTROLLER_PORT"
  done

  if [[ ! -f "$KAFKA_DATA_DIR/kraft/meta.properties" ]]; then
    cluster_id="$("${TOOL[@]}" kafka.tools.StorageTool random-uuid)"
    echo "kafka: formatting $KAFKA_DATA_DIR/kraft (cluster id $cluster_id)" >&2
    "${TOOL[@]}" kafka.tools.StorageTool format -t "$cluster_id" -c "$PROPS" >"$KAFKA_LOG_DIR/format.log" 2>&1 \
      || { cat "$KAFKA_LOG_DIR/format.log" >&2; die "formatting storage failed; if $KAFKA_DATA_DIR is stale, run stop.sh --clean"; }
  fi

  # shellcheck disable=SC2086  # KAFKA_HEAP_OPTS is a list of JVM flags
  nohup java ${KAFKA_HEAP_OPTS:--Xmx512m} -XX:+UseG1GC -Djava.awt.headless=true \
    -Dkafka.logs.dir="$KAFKA_LOG_DIR" -Dlog4j2.configurationFile="$KAFKA_SCRIPT_DIR/log4j2.properties" \
    -cp "$KAFKA_LIBS/*" kafka.Kafka "$PROPS" >>"$KAFKA_LOG_DIR/broker.out" 2>&1 </dev/null &
  pid=$! started=true
  echo "$pid" >"$KAFKA_PID_FILE"
  echo "kafka: started broker (pid $pid), logs in $KAFKA_LOG_DIR" >&2
fi

fail() {
  echo "kafka: ERROR: $1; last lines of the broker logs:" >&2
  tail -n 30 "$KAFKA_LOG_DIR/broker.out" >&2 2>/dev/null || true
  tail -n 30 "$KAFKA_LOG_DIR/server.log" >&2 2>/dev/null || true
  # Don't leave a half-started broker of ours behind to confuse the next start.
  if $started; then bash "$KAFKA_SCRIPT_DIR/stop.sh" || true; fi
  exit 1
}

deadline=$((SECONDS + TIMEOUT))
until probe; do
  kafka_running_pid >/dev/null || fail "broker process $pid exited during startup"
  ((SECONDS < deadline)) || fail "broker did not answer on $KAFKA_BOOTSTRAP within ${TIMEOUT}s"
  sleep 1
done
ready
