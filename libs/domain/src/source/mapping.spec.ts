import type { SourceMappingT } from '@notify/contracts';
import {
  eventTypeOf,
  evaluateParameter,
  firstUserOf,
  idempotencyKeyOf,
  liquidTemplatesOf,
  mappingProblems,
  planSourceActions,
  valueAt,
} from './mapping';

const payload = {
  body: {
    event: 'invoice.paid',
    id: 'evt_1',
    customer: { id: 'u-1', email: 'a@example.com' },
    lines: [{ amount: 12 }, { amount: 30 }],
    team: ['u-2', 'u-3'],
  },
  headers: { 'content-type': 'application/json' },
};
const noLiquid = () => {
  throw new Error('no template expected');
};
const mapping = (over: Partial<SourceMappingT> = {}): SourceMappingT => ({
  event_type: 'invoice.paid',
  action_type: 'workflows_trigger',
  action_parameters: { workflow: 'invoice-paid', recipients: '{{ body.customer.id }}', data: { amount: '$.body.lines[1].amount' } },
  active: true,
  is_deleted: false,
  created_at: 't',
  updated_at: 't',
  ...over,
});

describe('source mapping evaluation', () => {
  it('reads dot-notation and JSON paths, with list indexes', () => {
    expect(valueAt(payload, 'body.customer.id')).toBe('u-1');
    expect(valueAt(payload, '$.body.lines[0].amount')).toBe(12);
    expect(valueAt(payload, 'body.lines.1.amount')).toBe(30);
    expect(valueAt(payload, 'body.missing.deeper')).toBeUndefined();
    expect(valueAt(payload, 'body.customer.id.length')).toBeUndefined();
  });

  it('finds the event type at the default path or the one configured, and the idempotency key', () => {
    expect(eventTypeOf({ event_type_path: null }, payload)).toBe('invoice.paid');
    expect(eventTypeOf({ event_type_path: 'body.id' }, payload)).toBe('evt_1');
    expect(eventTypeOf({ event_type_path: 'body.customer' }, payload)).toBeNull();
    expect(idempotencyKeyOf({ idempotency_key_path: 'body.id' }, payload)).toBe('evt_1');
    expect(idempotencyKeyOf({ idempotency_key_path: null }, payload)).toBeNull();
  });

  it('keeps a single-output path as its raw value and hands other Liquid to the renderer', () => {
    expect(evaluateParameter('{{ body.team }}', payload, noLiquid)).toEqual(['u-2', 'u-3']);
    expect(evaluateParameter('literal', payload, noLiquid)).toBe('literal');
    expect(evaluateParameter('Paid {{ body.id }}!', payload, (t) => `rendered:${t}`)).toBe('rendered:Paid {{ body.id }}!');
    expect(evaluateParameter({ a: ['$.body.id', 3], b: '{{ body.nothing }}' }, payload, noLiquid)).toEqual({ a: ['evt_1', 3] });
    expect(liquidTemplatesOf({ a: '{{ body.id }}', b: ['Hi {{ body.customer.email | upcase }}'], c: '{% if x %}y{% endif %}' })).toEqual([
      'Hi {{ body.customer.email | upcase }}',
      '{% if x %}y{% endif %}',
    ]);
  });

  it('plans one trigger per active mapping of the event type', () => {
    const actions = planSourceActions({
      mappings: [
        mapping(),
        mapping({ event_type: 'invoice.failed' }),
        mapping({ active: false }),
        mapping({ is_deleted: true }),
        mapping({ action_parameters: { workflow: 'team', recipients: '{{ body.team }}', actor: '$.body.customer.id', tenant: 'acme' } }),
      ],
      eventType: 'invoice.paid',
      payload,
      render: noLiquid,
      actionId: (i) => `a${i}`,
    });
    expect(actions).toEqual([
      expect.objectContaining({
        id: 'a0',
        mapping_index: 0,
        action_payload: { workflow: 'invoice-paid', recipients: ['u-1'], data: { amount: 30 } },
        errors: [],
      }),
      expect.objectContaining({
        id: 'a4',
        mapping_index: 4,
        action_payload: { workflow: 'team', recipients: ['u-2', 'u-3'], data: {}, actor: 'u-1', tenant: 'acme' },
        errors: [],
      }),
    ]);
    expect(firstUserOf(actions)).toBe('u-1');
  });

  it('reports an event without recipients at the mapped path as an error of the action', () => {
    const [action] = planSourceActions({
      mappings: [mapping({ action_parameters: { workflow: 'w', recipients: '{{ body.nobody }}', data: '{{ body.customer.id }}' } })],
      eventType: 'invoice.paid',
      payload,
      render: noLiquid,
      actionId: () => 'a',
    });
    expect(action.errors.map((e) => e.field)).toEqual(['recipients', 'data']);
  });

  it('refuses malformed mappings with the offending fields', () => {
    expect(
      mappingProblems([
        { event_type: 'x', action_type: 'workflows_trigger', action_parameters: { recipients: '{{ body.a }}' } },
        { event_type: 'x', action_type: 'workflows_trigger', action_parameters: { workflow: 'w', data: 3 } },
        { event_type: 'x', action_type: 'users_delete', action_parameters: {} },
        { event_type: 'x', action_type: 'workflows_trigger', action_parameters: { workflow: 'ok', recipients: ['u'] } },
      ]).map((p) => p.field),
    ).toEqual([
      'mappings.0.action_parameters.workflow',
      'mappings.1.action_parameters.recipients',
      'mappings.1.action_parameters.data',
      'mappings.2.action_type',
    ]);
  });
});
