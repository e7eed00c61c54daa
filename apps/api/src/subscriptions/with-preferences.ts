import { SubscriptionT } from '@notify/contracts';
import { PreferenceQueries } from '@notify/projections/preferences';

/** `include[]=preferences`: each subscriber's preference sets on its recipient. */
export async function withRecipientPreferences(
  preferences: PreferenceQueries,
  environment: string,
  entries: SubscriptionT[],
): Promise<SubscriptionT[]> {
  return Promise.all(
    entries.map(async (s) => {
      const r = s.recipient as { __typename: string; id: string; collection?: string };
      const ref =
        r.__typename === 'Object' ? { type: 'object' as const, collection: r.collection!, id: r.id } : { type: 'user' as const, id: r.id };
      return { ...s, recipient: { ...s.recipient, preferences: await preferences.list(environment, ref) } } as SubscriptionT;
    }),
  );
}
