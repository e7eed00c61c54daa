import { conditionGroupHolds, ConditionGroup, evaluateCondition } from '@notify/domain';
import { conditionContext } from './condition-context';
import type { EngineLookups } from './lookups';

/** Lookups answering memberships from a table: `user|tenant` -> audience keys. */
function lookupsWith(memberships: Record<string, string[]>) {
  const calls: { keys: readonly string[]; tenant: string | null }[] = [];
  const lookups = {
    audiencesOf: (_env: string, ref: { type: string; id: string }, keys: readonly string[], tenant: string | null) => {
      calls.push({ keys, tenant });
      if (ref.type !== 'user') return Promise.resolve([]);
      const held = new Set([...(memberships[`${ref.id}|`] ?? []), ...(tenant ? (memberships[`${ref.id}|${tenant}`] ?? []) : [])]);
      return Promise.resolve(keys.filter((k) => held.has(k)));
    },
  } as unknown as EngineLookups;
  return { lookups, calls };
}

const now = '2026-03-02T10:00:00.000Z';
const beta: ConditionGroup = { all: [{ variable: 'recipient', operator: 'is_audience_member', argument: 'beta' }] };
const notChurned: ConditionGroup = { all: [{ variable: 'recipient', operator: 'is_not_audience_member', argument: 'churned' }] };

async function holds(lookups: EngineLookups, userId: string, tenant: string | null, group: ConditionGroup) {
  const context = await conditionContext(lookups, 'env', { recipient: { type: 'user', id: userId }, tenant }, [group], {}, now);
  return conditionGroupHolds(group, (c) => evaluateCondition(c as never, context));
}

describe('conditionContext', () => {
  it('evaluates is_audience_member and is_not_audience_member against the memberships looked up', async () => {
    const { lookups } = lookupsWith({ 'ada|': ['beta'], 'bob|': ['churned'] });
    expect(await holds(lookups, 'ada', null, beta)).toBe(true);
    expect(await holds(lookups, 'bob', null, beta)).toBe(false);
    expect(await holds(lookups, 'ada', null, notChurned)).toBe(true);
    expect(await holds(lookups, 'bob', null, notChurned)).toBe(false);
  });

  it("counts a tenant's membership only within that tenant", async () => {
    const { lookups, calls } = lookupsWith({ 'cy|acme': ['beta'] });
    expect(await holds(lookups, 'cy', 'acme', beta)).toBe(true);
    expect(await holds(lookups, 'cy', 'globex', beta)).toBe(false);
    expect(await holds(lookups, 'cy', null, beta)).toBe(false);
    expect(calls.map((c) => c.tenant)).toEqual(['acme', 'globex', null]);
  });

  it('looks nothing up when no condition asks about audiences, and asks once for every group given', async () => {
    const { lookups, calls } = lookupsWith({});
    const plain: ConditionGroup = { all: [{ variable: 'data.tier', operator: 'equal_to', argument: 'vip' }] };
    expect(
      await conditionContext(lookups, 'env', { recipient: { type: 'user', id: 'ada' } }, [plain, null], { data: { tier: 'vip' } }, now),
    ).toEqual({ variables: { data: { tier: 'vip' } }, now });
    expect(calls).toEqual([]);
    await conditionContext(lookups, 'env', { recipient: { type: 'user', id: 'ada' } }, [beta, notChurned, beta], {}, now);
    expect(calls).toEqual([{ keys: ['beta', 'churned'], tenant: null }]);
  });
});
