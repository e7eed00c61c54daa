import { StepNode } from '@notify/domain';
import type { EngineLookups } from '../lookups';
import { BranchStep } from './flow.steps';
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
