import { ObjectT, PageInfoT, RecipientRefT, ScheduleT, UserT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource, EntityManager } from 'typeorm';
import { ObjectRow, toObject } from '../objects/objects.queries';
import { recipientColumns, recipientFromColumns } from '../recipient-columns';
import { toUser } from '../users/users.queries';
import { ScheduleRow } from './schedule-row';

export interface ScheduleFilter {
  workflow?: string;
  tenant?: string;
  /** Any of these recipients. */
  recipients?: RecipientRefT[];
}

const COLUMNS = 's.*';
const refKey = (ref: RecipientRefT) => recipientColumns(ref).join('\u0000');

/** Every query is scoped by the environment it is given. */
export class ScheduleQueries {
  constructor(private readonly db: DataSource) {}

  async list(
    environment: string,
    filter: ScheduleFilter,
    page: { after?: string; before?: string; page_size: number },
  ): Promise<{ entries: ScheduleT[]; page_info: PageInfoT }> {
    const params: unknown[] = [environment];
    const where = ['s.environment = $1'];
    if (filter.workflow !== undefined) {
      params.push(filter.workflow);
      where.push(`s.workflow = $${params.length}`);
    }
    if (filter.tenant !== undefined) {
      params.push(filter.tenant);
      where.push(`s.tenant = $${params.length}`);
    }
    if (filter.recipients?.length) {
      const cols = filter.recipients.map(recipientColumns);
      params.push(
        cols.map((c) => c[0]),
        cols.map((c) => c[1]),
        cols.map((c) => c[2]),
      );
      const n = params.length;
      where.push(
        `(s.recipient_type, s.recipient_collection, s.recipient_id) IN (SELECT * FROM unnest($${n - 2}::text[], $${n - 1}::text[], $${n}::text[]))`,
      );
    }
    const { rows, pageInfo } = await keysetPage<ScheduleRow & Record<string, unknown>>(this.db, {
      select: COLUMNS,
      from: `FROM rm_schedules s WHERE ${where.join(' AND ')}`,
      params,
      order: [
        { expr: 's.inserted_at', type: 'timestamptz' },
        { expr: 's.id', type: 'uuid' },
      ],
      direction: 'asc',
      pageSize: page.page_size,
      after: page.after,
      before: page.before,
    });
    return { entries: await this.present(environment, rows), page_info: pageInfo };
  }

  /** The schedules of these ids that exist, in the order given. */
  async byIds(environment: string, ids: readonly string[], db: DataSource | EntityManager = this.db): Promise<ScheduleT[]> {
    if (ids.length === 0) return [];
    const rows = await db.query<ScheduleRow[]>('SELECT * FROM rm_schedules s WHERE s.environment = $1 AND s.id = ANY($2::uuid[])', [
      environment,
      ids,
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return this.present(
      environment,
      ids.map((id) => byId.get(id)).filter((r): r is ScheduleRow => r !== undefined),
    );
  }

  async row(environment: string, id: string): Promise<ScheduleRow | undefined> {
    const rows = await this.db.query<ScheduleRow[]>('SELECT * FROM rm_schedules WHERE environment = $1 AND id = $2', [environment, id]);
    return rows[0];
  }

  /** Ids of a recipient's schedules (for deleting them with the recipient). */
  async idsOf(environment: string, recipient: RecipientRefT): Promise<string[]> {
    const rows = await this.db.query<{ id: string }[]>(
      'SELECT id FROM rm_schedules WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4',
      [environment, ...recipientColumns(recipient)],
    );
    return rows.map((r) => r.id);
  }

  /** The recipient's own time zone as the log says it, if any. */
  async recipientZone(environment: string, recipient: RecipientRefT): Promise<string | undefined> {
    const rows = await this.db.query<{ time_zone: string }[]>(
      'SELECT time_zone FROM rm_schedule_zones WHERE environment = $1 AND recipient_type = $2 AND recipient_collection = $3 AND recipient_id = $4',
      [environment, ...recipientColumns(recipient)],
    );
    return rows[0]?.time_zone;
  }

  /** Rows as the API answers them, with their recipients and actors read in two queries. */
  private async present(environment: string, rows: readonly ScheduleRow[]): Promise<ScheduleT[]> {
    const refs = rows.flatMap((r) => [
      recipientFromColumns(r.recipient_type, r.recipient_collection, r.recipient_id),
      ...(r.actor ? [r.actor] : []),
    ]);
    const people = await this.recipients(environment, refs);
    const recipientOf = (ref: RecipientRefT, updatedAt: Date): UserT | ObjectT =>
      people.get(refKey(ref)) ??
      // Deleted while its schedules are being removed: its reference, as the log has it.
      (ref.type === 'user'
        ? { __typename: 'User', id: ref.id, created_at: null, updated_at: updatedAt.toISOString() }
        : {
            __typename: 'Object',
            id: ref.id,
            collection: ref.collection,
            properties: {},
            created_at: null,
            updated_at: updatedAt.toISOString(),
          });
    return rows.map((r) => ({
      __typename: 'Schedule',
      id: r.id,
      workflow: r.workflow,
      recipient: recipientOf(recipientFromColumns(r.recipient_type, r.recipient_collection, r.recipient_id), r.updated_at),
      actor: r.actor ? recipientOf(r.actor, r.updated_at) : null,
      tenant: r.tenant,
      data: r.data,
      repeats: r.repeats.map((rule) => ({ __typename: 'ScheduleRepeat', ...rule })),
      last_occurrence_at: r.last_occurrence_at ? new Date(r.last_occurrence_at).toISOString() : null,
      next_occurrence_at: r.next_occurrence_at ? new Date(r.next_occurrence_at).toISOString() : null,
      inserted_at: new Date(r.inserted_at).toISOString(),
      updated_at: new Date(r.updated_at).toISOString(),
    }));
  }

  private async recipients(environment: string, refs: readonly RecipientRefT[]): Promise<Map<string, UserT | ObjectT>> {
    const out = new Map<string, UserT | ObjectT>();
    const userIds = [...new Set(refs.filter((r) => r.type === 'user').map((r) => r.id))];
    const objects = refs.filter((r): r is Extract<RecipientRefT, { type: 'object' }> => r.type === 'object');
    if (userIds.length) {
      const rows = await this.db.query<Parameters<typeof toUser>[0][]>(
        'SELECT id, properties, inserted_at, updated_at FROM rm_users WHERE environment = $1 AND id = ANY($2)',
        [environment, userIds],
      );
      for (const row of rows) out.set(refKey({ type: 'user', id: row.id }), toUser(row));
    }
    if (objects.length) {
      const rows = await this.db.query<ObjectRow[]>(
        `SELECT o.collection, o.id, o.properties, o.inserted_at, o.updated_at FROM rm_objects o
          WHERE o.environment = $1 AND (o.collection, o.id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
        [environment, objects.map((o) => o.collection), objects.map((o) => o.id)],
      );
      for (const row of rows) out.set(refKey({ type: 'object', collection: row.collection, id: row.id }), toObject(row));
    }
    return out;
  }
}
