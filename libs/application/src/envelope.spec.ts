import { schemaVersionOf } from '@notify/contracts';
import { engineEvent, engineMetadata, eventEnvelope } from './envelope';

const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('event envelopes', () => {
  it('keeps the given id and metadata and sets the schema version of the type', () => {
    const event = eventEnvelope('UserIdentified', { user_id: 'u1' }, 'id-1', {
      environment: 'dev',
      actor: 'key-1',
      request_id: 'req-1',
      traceparent,
    });
    expect(event).toEqual({
      id: 'id-1',
      type: 'UserIdentified',
      data: { user_id: 'u1' },
      metadata: { environment: 'dev', actor: 'key-1', request_id: 'req-1', traceparent, schema_version: schemaVersionOf('UserIdentified') },
    });
  });

  it('builds an engine event with its correlation, causation, actor and the trace context of its cause', () => {
    const event = engineEvent(
      'RunResumed',
      { run_id: 'r' },
      {
        id: 'det-id',
        environment: 'prod',
        correlationId: 'wr',
        causationId: 'r',
        actor: 'system:engine',
        cause: { traceparent, tracestate: 'k=v' },
      },
    );
    expect(event).toEqual({
      id: 'det-id',
      type: 'RunResumed',
      data: { run_id: 'r' },
      metadata: {
        environment: 'prod',
        correlation_id: 'wr',
        causation_id: 'r',
        actor: 'system:engine',
        traceparent,
        tracestate: 'k=v',
        schema_version: schemaVersionOf('RunResumed'),
      },
    });
  });

  it('leaves out what it was not given: no correlation, causation or trace without a cause or an active span', () => {
    expect(engineMetadata({ environment: null, actor: 'system:timers', cause: { traceparent: 42 } })).toStrictEqual({
      environment: null,
      actor: 'system:timers',
    });
    expect(engineEvent('TimerFired', { timer_id: 't' }, { id: 'x', environment: 'dev', actor: 'system:timers' }).metadata).toStrictEqual({
      environment: 'dev',
      actor: 'system:timers',
      schema_version: schemaVersionOf('TimerFired'),
    });
  });
});
