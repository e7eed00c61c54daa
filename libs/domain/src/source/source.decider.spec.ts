import { deciderSpec } from '@notify/testing/decider-spec';
import { SourceMappingInput, sourceDecider, sourceLogDecider } from './source.decider';
import { SourceEvent, SourceLogEvent } from './source.events';

const settings = {
  enforce_verification: false,
  event_type_path: 'body.event',
  idempotency_key_path: null,
  timestamp_path: null,
  preprocess_script: null,
};
const m1: SourceMappingInput = {
  event_type: 'signup',
  action_type: 'workflows_trigger',
  action_parameters: { workflow: 'welcome', recipients: '{{ body.user }}' },
  active: true,
  is_deleted: false,
};
const upsert = (mappings: SourceMappingInput[], now = 't1', name = 'App') => ({
  type: 'UpsertSource' as const,
  key: 'app',
  name,
  custom_image_url: null,
  settings,
  mappings,
  now,
});
const upserted = (mappings: object[], at = 't1', name = 'App'): SourceEvent => ({
  type: 'SourceUpserted',
  data: { key: 'app', name, custom_image_url: null, settings, mappings: mappings as never, upserted_at: at },
});

describe('source decider', () => {
  const spec = deciderSpec(sourceDecider);

  it('records a new source with its mappings stamped', () => {
    spec
      .given()
      .when(upsert([m1]))
      .then([upserted([{ ...m1, created_at: 't1', updated_at: 't1' }])]);
  });

  it('records nothing when nothing changed, and keeps created_at of a mapping that stays', () => {
    const first = upserted([{ ...m1, created_at: 't1', updated_at: 't1' }]);
    spec
      .given([first])
      .when(upsert([m1], 't2'))
      .thenNothing();
    const m2 = { ...m1, event_type: 'login' };
    spec
      .given([first])
      .when(upsert([m1, { ...m2 }, { ...m1, active: false }].slice(0, 2), 't2', 'App 2'))
      .then([
        upserted(
          [
            { ...m1, created_at: 't1', updated_at: 't1' },
            { ...m2, created_at: 't2', updated_at: 't2' },
          ],
          't2',
          'App 2',
        ),
      ]);
  });

  it('refuses a malformed mapping', () => {
    spec
      .given()
      .when(upsert([{ ...m1, action_parameters: { workflow: 'Not A Key!' } }]))
      .thenThrows('invalid_params');
  });
});

describe('source log decider', () => {
  const spec = deciderSpec(sourceLogDecider);
  const logId = '00000000-0000-4000-8000-000000000001';
  const record = {
    type: 'RecordSourceEvent' as const,
    logId,
    sourceKey: 'app',
    event: 'signup',
    idempotencyKey: 'k',
    payload: { body: { event: 'signup' }, headers: {} },
    actions: [],
    subject: null,
    now: 't',
  };
  const received: SourceLogEvent = {
    type: 'SourceEventReceived',
    data: {
      log_id: logId,
      source_key: 'app',
      event: 'signup',
      idempotency_key: 'k',
      payload: record.payload,
      actions: [],
      subject: null,
      received_at: 't',
    },
  };
  const results = { type: 'RecordActionResults' as const, logId, sourceKey: 'app', results: [], now: 't' };

  it('records an event once: a repeat of its idempotency key changes nothing', () => {
    spec.given().when(record).then([received]);
    spec.given([received]).when(record).thenNothing();
  });

  it('records the results of its actions once, and only for a received event', () => {
    spec.given().when(results).thenNothing();
    const ran: SourceLogEvent = { type: 'SourceActionsRan', data: { log_id: logId, source_key: 'app', results: [], ran_at: 't' } };
    spec.given([received]).when(results).then([ran]);
    spec.given([received, ran]).when(results).thenNothing();
  });
});
