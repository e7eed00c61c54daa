import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, Tracing } from '@notify/observability';
import { deleteTestTopics, kafkaTestSettings, readTopicToEnd, testEnv, describeWith } from '@notify/testing';
import { startHttpPeer, type Peer } from '@notify/testing/peers';
import { twilioMessageCreated } from '@notify/testing/provider-peers';
import { eventually, messageOf, messageWithStatus, putChannel, putWorkflow } from '../support/delivery';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * One trace from the HTTP request through the log, the worker's step, the delivery and its
 * provider call, to the Kafka publish and the record's headers (W3C Trace Context).
 */
const describeKafka = describeWith('kafka');

describeKafka('traces', () => {
  const settings = testEnv.kafkaBrokers ? kafkaTestSettings() : undefined;
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let t: TestApp;
  let twilio: Peer;
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpan = '00f067aa0ba902b7';

  beforeAll(async () => {
    tracing = startTracing({ serviceName: 'notify-test', exporter })!;
    twilio = await startHttpPeer(twilioMessageCreated);
    const prefix = settings!.topics.events.replace(/events\.v1$/, '');
    t = await startTestApp({ env: { KAFKA_BROKERS: testEnv.kafkaBrokers!, KAFKA_TOPIC_PREFIX: prefix } });
    await putChannel(t, 'sms-traced', {
      type: 'sms',
      provider: 'twilio',
      provider_settings: {
        account_sid: 'AC0123456789abcdef0123456789abcdef',
        auth_token: 'tok',
        from: '+15005550006',
        base_url: twilio.url,
      },
    });
    await putWorkflow(t, 'traced', [
      { type: 'channel', ref: 'sms', channel_key: 'sms-traced', template: { text_body: 'Hi {{ recipient.name }}' } },
    ]);
    await t.knock().users.update('traced-ada', { name: 'Ada', phone_number: '+15558675310' });
  });
  afterAll(async () => {
    await t?.close();
    await twilio?.close();
    await tracing?.shutdown();
    if (settings) await deleteTestTopics(settings);
  });

  const spansOfTrace = () => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

  it('follows a trigger from the caller’s traceparent to the provider call and the Kafka record', async () => {
    const trigger = await t.http('POST', '/v1/workflows/traced/trigger', {
      body: { recipients: ['traced-ada'] },
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(trigger.status).toBe(200);
    const runId = trigger.body.workflow_run_id as string;
    const message = await messageWithStatus(t, (await messageOf(t, runId, 'sms')).id, ['sent']);

    // The request span continues the caller's trace.
    const [request] = named(spansOfTrace(), 'POST /v1/workflows/:key/trigger');
    expect(request).toBeDefined();
    expect(request.parentSpanContext?.spanId).toBe(callerSpan);
    expect(request.attributes['http.response.status_code']).toBe(200);

    // Every event of the run and of the message carries the trace.
    const events = await t.sql<{ type: string; traceparent: string | null }>(
      `SELECT event_type AS type, metadata->>'traceparent' AS traceparent FROM es_events WHERE stream_id LIKE $1 OR stream_id = $2 ORDER BY global_position`,
      [`run-development-%`, `message-development-${message.id}`],
    );
    const ofThisTrace = events.filter((e) => e.traceparent?.includes(traceId));
    expect(ofThisTrace.map((e) => e.type)).toEqual(
      // The one step is recorded in the RunCompleted (ADR 0233).
      expect.arrayContaining(['RunEnqueued', 'RunCompleted', 'MessageCreated', 'MessageSent']),
    );

    // The worker's step, the delivery and the provider call are spans of the same trace, nested.
    const spans = await eventually(
      async () => {
        const all = spansOfTrace();
        return named(all, 'provider twilio').length && named(all, 'kafka publish').length ? all : undefined;
      },
      30_000,
      'the provider and Kafka spans',
    );
    const [step] = named(spans, 'step channel');
    const [deliver] = named(spans, 'deliver sms');
    const [provider] = named(spans, 'provider twilio');
    expect(step.attributes['notify.workflow']).toBe('traced');
    expect(deliver.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
    expect(provider.parentSpanContext?.spanId).toBe(deliver.spanContext().spanId);
    expect(provider.attributes['notify.outcome']).toBe('sent');

    // The Kafka record of the message's events names the trace in its headers.
    const records = await eventually(
      async () => {
        const found = (await readTopicToEnd(settings!, settings!.topics.events)).filter(
          (r) => r.value.stream_id === `message-development-${message.id}`,
        );
        return found.length ? found : undefined;
      },
      30_000,
      'the message records',
    );
    expect(records.every((r) => String(r.headers.traceparent).startsWith(`00-${traceId}-`))).toBe(true);
  });

  it('starts a new trace for a request without a traceparent', async () => {
    const res = await t.http('GET', '/v1/users/traced-ada');
    expect(res.status).toBe(200);
    const span = await eventually(
      async () =>
        exporter
          .getFinishedSpans()
          .find((s) => s.name === 'GET /v1/users/:user_id' && s.attributes['http.request.id'] === res.headers.get('x-request-id')),
      10_000,
      'the span',
    );
    expect(span.spanContext().traceId).not.toBe(traceId);
    expect(span.parentSpanContext).toBeUndefined();
  });
});
