import { PageInfoT, RecipientRefT, SubscriptionT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';
import { toObject } from '../objects/objects.queries';
import { recipientColumns, recipientFromColumns } from '../recipient-columns';
import { toUser } from '../users/users.queries';

interface Row extends Record<string, unknown> {
  object_collection: string;
  object_id: string;
  recipient_type: string;
  recipient_collection: string;
  recipient_id: string;
  properties: Record<string, unknown> | null;
  inserted_at: Date;
  updated_at: Date;
  o_properties: Record<string, unknown> | null;
  o_updated_at: Date | null;
  r_properties: Record<string, unknown> | null;
  r_updated_at: Date | null;
}

const SELECT = `s.object_collection, s.object_id, s.recipient_type, s.recipient_collection, s.recipient_id, s.properties, s.inserted_at, s.updated_at,
  o.properties AS o_properties, o.updated_at AS o_updated_at,
  coalesce(u.properties, ro.properties) AS r_properties, coalesce(u.updated_at, ro.updated_at) AS r_updated_at`;

// The object and the recipient come from their own read models, joined at read time.
const JOINS = `FROM rm_subscriptions s
  LEFT JOIN rm_objects o ON o.environment = s.environment AND o.collection = s.object_collection AND o.id = s.object_id
  LEFT JOIN rm_users u ON s.recipient_type = 'user' AND u.environment = s.environment AND u.id = s.recipient_id
  LEFT JOIN rm_objects ro ON s.recipient_type = 'object' AND ro.environment = s.environment AND ro.collection = s.recipient_collection AND ro.id = s.recipient_id`;

function toSubscription(row: Row): SubscriptionT {
  const object = toObject({
    collection: row.object_collection,
    id: row.object_id,
    properties: row.o_properties ?? {},
    inserted_at: row.inserted_at,
    updated_at: row.o_updated_at ?? row.updated_at,
  });
  const recipientUpdated = row.r_updated_at ?? row.updated_at;
  const recipient =
    row.recipient_type === 'user'
      ? toUser({
          id: row.recipient_id,
          properties: row.r_properties ?? {},
          inserted_at: row.inserted_at,
          updated_at: new Date(recipientUpdated),
        })
      : toObject({
          collection: row.recipient_collection,
          id: row.recipient_id,
          properties: row.r_properties ?? {},
          inserted_at: row.inserted_at,
          updated_at: recipientUpdated,
        });
  return {
    __typename: 'Subscription',
    object,
    recipient,
    properties: row.properties,
    inserted_at: new Date(row.inserted_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

type Page = { after?: string; before?: string; page_size: number };

/** Every query is scoped by the environment it is given. */
export class SubscriptionQueries {
  constructor(private readonly db: DataSource) {}

  /** The subscribers of an object, optionally only the given ones. */
  /**
   * Subscriber references only, in primary-key order, a large page at a time: what a workflow
   * fan-out walks (the listing endpoints use subscribersOf).
   */
  async subscriberRefs(
    environment: string,
    collection: string,
    objectId: string,
    after: [string, string, string] | null,
    limit: number,
  ): Promise<RecipientRefT[]> {
    const rows = await this.db.query<{ recipient_type: string; recipient_collection: string; recipient_id: string }[]>(
      `SELECT recipient_type, recipient_collection, recipient_id FROM rm_subscriptions
       WHERE environment = $1 AND object_collection = $2 AND object_id = $3
         AND ($4::text IS NULL OR (recipient_type, recipient_collection, recipient_id) > ($4, $5, $6))
       ORDER BY recipient_type, recipient_collection, recipient_id LIMIT $7`,
      [environment, collection, objectId, after?.[0] ?? null, after?.[1] ?? null, after?.[2] ?? null, limit],
    );
    return rows.map((r) => recipientFromColumns(r.recipient_type, r.recipient_collection, r.recipient_id));
  }

  async subscribersOf(
    environment: string,
    collection: string,
    objectId: string,
    page: Page,
    recipients?: RecipientRefT[],
  ): Promise<{ entries: SubscriptionT[]; page_info: PageInfoT }> {
    const params: unknown[] = [environment, collection, objectId];
    let where = 's.environment = $1 AND s.object_collection = $2 AND s.object_id = $3';
    if (recipients?.length) {
      params.push(JSON.stringify(recipients.map(recipientColumns)));
      where += ` AND jsonb_build_array(s.recipient_type, s.recipient_collection, s.recipient_id) IN (SELECT value FROM jsonb_array_elements($${params.length}::jsonb))`;
    }
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: SELECT,
      from: `${JOINS} WHERE ${where}`,
      params,
      order: [
        { expr: 's.inserted_at', type: 'timestamptz' },
        { expr: 's.recipient_type', type: 'text' },
        { expr: 's.recipient_collection', type: 'text' },
        { expr: 's.recipient_id', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
    });
    return { entries: rows.map(toSubscription), page_info: pageInfo };
  }

  /** The objects a recipient (user or object) subscribes to, optionally only the given ones. */
  async subscriptionsOf(
    environment: string,
    recipient: RecipientRefT,
    page: Page,
    objects?: { collection: string; id: string }[],
  ): Promise<{ entries: SubscriptionT[]; page_info: PageInfoT }> {
    const params: unknown[] = [environment, ...recipientColumns(recipient)];
    let where = 's.environment = $1 AND s.recipient_type = $2 AND s.recipient_collection = $3 AND s.recipient_id = $4';
    if (objects?.length) {
      params.push(JSON.stringify(objects.map((o) => [o.collection, o.id])));
      where += ` AND jsonb_build_array(s.object_collection, s.object_id) IN (SELECT value FROM jsonb_array_elements($${params.length}::jsonb))`;
    }
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: SELECT,
      from: `${JOINS} WHERE ${where}`,
      params,
      order: [
        { expr: 's.inserted_at', type: 'timestamptz' },
        { expr: 's.object_collection', type: 'text' },
        { expr: 's.object_id', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
    });
    return { entries: rows.map(toSubscription), page_info: pageInfo };
  }

  /** The given recipients' subscriptions to one object, whole (for answers) and by recipient. */
  async find(environment: string, collection: string, objectId: string, recipients: RecipientRefT[]): Promise<SubscriptionT[]> {
    if (recipients.length === 0) return [];
    const page = await this.subscribersOf(environment, collection, objectId, { page_size: 1000 }, recipients);
    return page.entries;
  }

  /** Current properties of each given recipient's subscription, keyed `type|collection|id`; absent when none. */
  async current(
    environment: string,
    collection: string,
    objectId: string,
    recipients: RecipientRefT[],
  ): Promise<Map<string, { properties: Record<string, unknown> | null }>> {
    const out = new Map<string, { properties: Record<string, unknown> | null }>();
    if (recipients.length === 0) return out;
    const rows = await this.db.query<
      { recipient_type: string; recipient_collection: string; recipient_id: string; properties: Record<string, unknown> | null }[]
    >(
      `SELECT recipient_type, recipient_collection, recipient_id, properties FROM rm_subscriptions
       WHERE environment = $1 AND object_collection = $2 AND object_id = $3
         AND jsonb_build_array(recipient_type, recipient_collection, recipient_id) IN (SELECT value FROM jsonb_array_elements($4::jsonb))`,
      [environment, collection, objectId, JSON.stringify(recipients.map(recipientColumns))],
    );
    for (const r of rows)
      out.set(recipientKey(recipientFromColumns(r.recipient_type, r.recipient_collection, r.recipient_id)), { properties: r.properties });
    return out;
  }
}

export const recipientKey = (ref: RecipientRefT) => recipientColumns(ref).join('|');
