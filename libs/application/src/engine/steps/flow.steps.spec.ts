import { emptyPreferenceSet, StepNode } from '@notify/domain';
import type { EngineLookups } from '../lookups';
import { BranchStep } from './flow.steps';
import { ChannelStep } from './channel.step';
import { stepContext } from './step-context.fixture';

const branch = {
  type: 'branch',
  ref: 'route',
  branches: [
    { name: 'beta', conditions: { all: [{ variable: 'recipient', operator: 'is_audience_member', argument: 'beta' }] }, steps: [] },
    {
      name: 'not-churned',
      conditions: { all: [{ variable: 'recipient', operator: 'is_not_audience_member', argument: 'churned' }] },
      steps: [],
    },
    { name: 'default', steps: [] },
  ],
} as unknown as StepNode;

const memberOf = (held: string[]) =>
  ({
    audiencesOf: (_e: string, _r: unknown, keys: readonly string[]) => Promise.resolve(keys.filter((k) => held.includes(k))),
  }) as unknown as EngineLookups;

describe('branch step with audience conditions', () => {
  it.each([
    [['beta', 'churned'], 'beta'],
    [[], 'not-churned'],
    [['churned'], 'default'],
  ])('a member of %j takes the %s branch', async (held, taken) => {
    const outcome = await new BranchStep().execute(stepContext(branch, { deps: { lookups: memberOf(held) } }));
    expect(outcome).toMatchObject({ flow: 'continue', status: 'ok', output: { branch: taken } });
  });
});

describe('branch step inputs (ADR 0219)', () => {
  it("records each branch's conditions with what they compared, up to the one taken", async () => {
    const outcome = await new BranchStep().execute(stepContext(branch, { deps: { lookups: memberOf(['churned']) } }));
    expect(outcome.inputs).toEqual({
      branches: [
        {
          name: 'beta',
          conditions: {
            holds: false,
            mode: 'all',
            conditions: [
              {
                variable: 'recipient',
                operator: 'is_audience_member',
                argument: 'beta',
                value: ['churned'],
                compared_to: 'beta',
                result: false,
              },
            ],
          },
        },
        {
          name: 'not-churned',
          conditions: {
            holds: false,
            mode: 'all',
            conditions: [
              {
                variable: 'recipient',
                operator: 'is_not_audience_member',
                argument: 'churned',
                value: ['churned'],
                compared_to: 'churned',
                result: false,
              },
            ],
          },
        },
        { name: 'default', conditions: null },
      ],
    });
    const first = await new BranchStep().execute(stepContext(branch, { deps: { lookups: memberOf(['beta']) } }));
    expect(first.inputs?.branches?.map((b) => b.name)).toEqual(['beta']);
  });
});

describe('channel step inputs (ADR 0219)', () => {
  const empty = emptyPreferenceSet();
  const step = {
    type: 'channel',
    ref: 'email',
    channel_key: 'postmark',
    template: { subject: 'Hi', html_body: 'Hi' },
  } as unknown as StepNode;
  const channel = { id: '5b8f0f5c-0000-4000-8000-000000000001', key: 'postmark', type: 'email', provider: 'postmark', settings: null };
  const lookups = (layers: Record<string, unknown>) =>
    ({
      channelByKey: () => Promise.resolve(channel),
      preferenceLayers: () => Promise.resolve(layers),
    }) as unknown as EngineLookups;

  it('records which layer opted the recipient out, with the value, on the skipped step', async () => {
    const layers = {
      tenantDefault: { ...empty, channel_types: { email: true } },
      recipientDefault: { ...empty, channel_types: { email: false } },
    };
    const outcome = await new ChannelStep().execute(stepContext(step, { deps: { lookups: lookups(layers) } }));
    expect(outcome).toMatchObject({ flow: 'continue', status: 'skipped', reason: 'preference:channel_type_opted_out' });
    expect(outcome.inputs?.preferences).toEqual({
      commercial: false,
      override_preferences: false,
      channel_type: 'email',
      checked: [{ setting: 'channel_types.email', layer: 'recipient_default', value: false, result: 'opted_out' }],
      decided_by: { setting: 'channel_types.email', layer: 'recipient_default', value: false, result: 'opted_out' },
    });
  });

  it('records the preferences that allowed it on whatever the step decided next', async () => {
    const layers = { recipientDefault: { ...empty, channel_types: { email: true } } };
    // The recipient has no email address: skipped for that, with the preferences that let it through.
    const ctx = stepContext(step, { deps: { lookups: lookups(layers) } });
    const outcome = await new ChannelStep().execute(ctx);
    expect(outcome).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/email/) });
    expect(outcome.inputs?.preferences).toMatchObject({
      decided_by: null,
      checked: [{ setting: 'channel_types.email', layer: 'recipient_default', value: true, result: 'allowed' }],
    });
  });
});
