import type { RecipientRefT } from '@notify/contracts';
import { audienceKeysIn, ConditionContext, ConditionGroup } from '@notify/domain';
import type { EngineLookups } from './lookups';

/**
 * What conditions are evaluated with: the run's variables and, when some condition asks about
 * audiences, the recipient's memberships of exactly those audiences (one read-model query).
 */
export async function conditionContext(
  lookups: EngineLookups,
  environment: string,
  run: { recipient: RecipientRefT; tenant?: string | null },
  groups: readonly (ConditionGroup | null | undefined)[],
  variables: Record<string, unknown>,
  now: string,
): Promise<ConditionContext> {
  const keys = [...new Set(groups.flatMap((g) => audienceKeysIn(g)))];
  if (keys.length === 0) return { variables, now };
  return { variables, now, audiences: await lookups.audiencesOf(environment, run.recipient, keys, run.tenant ?? null, now) };
}
