// The Kafka producer of a KafkaPublisher, on a thread of its own (ADR 0282): kafkajs encodes
// every record (varints, CRC-32C, buffer copies) on the thread that sends, and a relay sending a
// backlog keeps that thread busy; here it does not share it with reading the log, mapping, the
// engine or the HTTP server.
// Plain CommonJS on purpose: it is loaded by path, both from sources and from the build.
//
// In: 'connect', { send: id, records } (packed by producer-wire.js, its buffers transferred) and
//     'close'. Out: { connected, error? }, { sent: id } or { failed: id, error },
//     and { log } for kafkajs' log lines; after 'close' the thread ends.
//     workerData: { client (kafkajs client config), timeoutMs, producer (producer options) }.
const { parentPort, workerData } = require('node:worker_threads');
const { Kafka, Partitioners, logLevel } = require('kafkajs');
const { unpackRecords } = require('./producer-wire.js');

const kafka = new Kafka({
  ...workerData.client,
  logLevel: logLevel.INFO,
  logCreator:
    () =>
    ({ namespace, level, log }) => {
      const { timestamp: _t, logger: _l, ...rest } = log;
      parentPort.postMessage({ log: { namespace, level, log: rest } });
    },
});

/** The producer in use, connecting or connected; dropped after any failed send (see KafkaPublisher). */
let producer;

function connected() {
  if (!producer) {
    const created = kafka.producer({ ...workerData.producer, createPartitioner: Partitioners.DefaultPartitioner });
    producer = created.connect().then(() => created);
    producer.catch(() => (producer = undefined));
  }
  return producer;
}

async function reset() {
  const current = producer;
  producer = undefined;
  if (current) await current.then((p) => p.disconnect()).catch(() => undefined);
}

function describe(error) {
  const e = error instanceof Error ? error : new Error(String(error));
  return { name: e.name, message: e.message, type: e.type, retriable: e.retriable, stack: e.stack };
}

async function send(id, records) {
  try {
    const topicMessages = unpackRecords(records);
    const p = await connected();
    await p.sendBatch({ acks: -1, timeout: workerData.timeoutMs, topicMessages });
    parentPort.postMessage({ sent: id });
  } catch (error) {
    await reset();
    parentPort.postMessage({ failed: id, error: describe(error) });
  }
}

parentPort.on('message', (message) => {
  if (message === 'connect') {
    connected().then(
      () => parentPort.postMessage({ connected: true }),
      (error) => parentPort.postMessage({ connected: false, error: describe(error) }),
    );
  } else if (message === 'close') {
    reset().finally(() => parentPort.close());
  } else void send(message.send, message.records);
});
