import { TestApp } from './test-app';

/** Events in the whole log: "nothing written" is this count unchanged. */
export async function countEvents(t: Pick<TestApp, 'sql'>): Promise<number> {
  return Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
}

/** The error body and status an SDK call was rejected with. */
export async function rejection(promise: Promise<unknown>): Promise<{ status: number; error: any }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { status?: number; error?: unknown };
    if (typeof e.status === 'number') return { status: e.status, error: e.error };
    throw error;
  }
  throw new Error('expected the call to be rejected');
}

export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Row counts of every read model that can hold something about a user. */
export async function userFootprint(t: Pick<TestApp, 'sql'>, environment: string, userId: string): Promise<Record<string, number>> {
  const count = async (sql: string) => Number((await t.sql<{ c: string }>(sql, [environment, userId]))[0].c);
  return {
    users: await count('SELECT count(*) AS c FROM rm_users WHERE environment = $1 AND id = $2'),
    preferences: await count(
      `SELECT count(*) AS c FROM rm_preference_sets WHERE environment = $1 AND recipient_type = 'user' AND recipient_id = $2`,
    ),
    channel_data: await count(
      `SELECT count(*) AS c FROM rm_channel_data WHERE environment = $1 AND recipient_type = 'user' AND recipient_id = $2`,
    ),
    subscriptions: await count(
      `SELECT count(*) AS c FROM rm_subscriptions WHERE environment = $1 AND recipient_type = 'user' AND recipient_id = $2`,
    ),
    audience_members: await count('SELECT count(*) AS c FROM rm_audience_members WHERE environment = $1 AND user_id = $2'),
  };
}
