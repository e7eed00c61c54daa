import {
  ListWorkflowRecipientRunsQueryT,
  PageInfoT,
  RecipientRefT,
  RecipientReferenceT,
  WorkflowRecipientRunDetailT,
  WorkflowRecipientRunEventT,
  WorkflowRecipientRunT,
} from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

interface RunRow extends Record<string, unknown> {
  id: string;
  workflow_run_id: string;
  workflow: string;
  recipient_type: 'user' | 'object';
  recipient_id: string;
  recipient_collection: string | null;
  actor: RecipientRefT | null;
  tenant: string | null;
  status: WorkflowRecipientRunT['status'];
  error_count: number;
  trigger_source: { type: string; workflow_recipient_run_id?: string | null; broadcast_key?: string | null; audience_key?: string | null };
  cancellation_key: string | null;
  inserted_at: Date;
  updated_at: Date;
}

interface EventRow {
  id: string;
  event: string;
  status: 'ok' | 'error';
  step_ref: string | null;
  step_type: string | null;
  attempt: number | null;
  data: Record<string, unknown> | null;
  inserted_at: Date;
}

/** An active run the cancellation reactor may cancel. */
export interface CancellableRun {
  id: string;
  recipient: RecipientRefT;
}

const COLUMNS =
  'r.id, r.workflow_run_id, r.workflow, r.recipient_type, r.recipient_id, r.recipient_collection, r.actor, r.tenant, r.status, r.error_count, r.trigger_source, r.cancellation_key, r.inserted_at, r.updated_at';

const reference = (ref: RecipientRefT): RecipientReferenceT => (ref.type === 'user' ? ref.id : { id: ref.id, collection: ref.collection });

/** The log's trigger kinds in the API's vocabulary (ADR 0091). */
const SOURCE_TYPES: Record<string, WorkflowRecipientRunT['trigger_source']['type']> = {
  api: 'api',
  bulk: 'api',
  workflow: 'workflow_step',
  schedule: 'schedule',
  test: 'rehearsal',
  broadcast: 'broadcast',
  source: 'integration',
};

export function toWorkflowRecipientRun(row: RunRow): WorkflowRecipientRunT {
  const recipient: RecipientRefT =
    row.recipient_type === 'user'
      ? { type: 'user', id: row.recipient_id }
      : { type: 'object', collection: row.recipient_collection!, id: row.recipient_id };
  return {
    __typename: 'WorkflowRecipientRun',
    id: row.id,
    workflow_run_id: row.workflow_run_id,
    workflow: row.workflow,
    recipient: reference(recipient),
    actor: row.actor ? reference(row.actor) : null,
    tenant: row.tenant,
    status: row.status,
    error_count: row.error_count,
    trigger_source: {
      type: SOURCE_TYPES[row.trigger_source.type] ?? 'api',
      cancellation_key: row.cancellation_key,
      ...(row.trigger_source.type === 'broadcast'
        ? { broadcast_key: row.trigger_source.broadcast_key ?? null, audience_key: row.trigger_source.audience_key ?? null }
        : {}),
    },
    inserted_at: new Date(row.inserted_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Workflow recipient runs and their histories; every query is scoped by the environment it is given. */
export class WorkflowRunQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, id: string): Promise<WorkflowRecipientRunDetailT | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db.query<RunRow[]>(
      `SELECT ${COLUMNS} FROM rm_workflow_recipient_runs r WHERE r.environment = $1 AND r.id = $2`,
      [environment, id],
    );
    if (!row) return undefined;
    const events = await this.db.query<EventRow[]>(
      `SELECT id, event, status, step_ref, step_type, attempt, data, inserted_at FROM rm_workflow_recipient_run_events
       WHERE environment = $1 AND run_id = $2 ORDER BY seq, part`,
      [environment, id],
    );
    return {
      ...toWorkflowRecipientRun(row),
      // `attempt` is an integer in the reference, not null: events that are not a step's attempt leave it out.
      events: events.map(({ attempt, ...e }): WorkflowRecipientRunEventT => ({
        __typename: 'WorkflowRecipientRunEvent',
        ...e,
        ...(attempt === null ? {} : { attempt }),
        inserted_at: new Date(e.inserted_at).toISOString(),
      })),
    };
  }

  async list(environment: string, q: ListWorkflowRecipientRunsQueryT): Promise<{ items: WorkflowRecipientRunT[]; page_info: PageInfoT }> {
    const params: unknown[] = [environment];
    const where = ['r.environment = $1'];
    const add = (sql: (p: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (q.workflow !== undefined) add((p) => `r.workflow = ${p}`, q.workflow);
    if (q.status?.length) add((p) => `r.status = ANY(${p})`, q.status);
    if (q.tenant !== undefined) add((p) => `r.tenant = ${p}`, q.tenant);
    if (q.workflow_run_id !== undefined) add((p) => `r.workflow_run_id = ${p}`, q.workflow_run_id);
    if (q.has_errors === true) where.push('r.error_count > 0');
    if (q.has_errors === false) where.push('r.error_count = 0');
    if (q.recipient !== undefined) {
      if (typeof q.recipient === 'string') {
        add((p) => `r.recipient_type = 'user' AND r.recipient_id = ${p}`, q.recipient);
      } else {
        add((p) => `r.recipient_type = 'object' AND r.recipient_id = ${p}`, q.recipient.id);
        add((p) => `r.recipient_collection = ${p}`, q.recipient.collection);
      }
    }
    if (q.starting_at !== undefined) add((p) => `r.inserted_at >= ${p}::timestamptz`, q.starting_at);
    if (q.ending_at !== undefined) add((p) => `r.inserted_at <= ${p}::timestamptz`, q.ending_at);
    const range = q.inserted_at ?? {};
    for (const [op, sql] of [
      ['gt', '>'],
      ['gte', '>='],
      ['lt', '<'],
      ['lte', '<='],
    ] as const) {
      if (range[op] !== undefined) add((p) => `r.inserted_at ${sql} ${p}::timestamptz`, range[op]);
    }
    const { rows, pageInfo } = await keysetPage<RunRow>(this.db, {
      select: COLUMNS,
      from: `FROM rm_workflow_recipient_runs r WHERE ${where.join(' AND ')}`,
      params,
      order: [
        { expr: 'r.inserted_at', type: 'timestamptz' },
        { expr: 'r.id::text', type: 'text' },
      ],
      direction: 'desc',
      pageSize: q.page_size,
      after: q.after,
      before: q.before,
      withTotal: false,
    });
    return { items: rows.map(toWorkflowRecipientRun), page_info: pageInfo };
  }

  /**
   * The runs of a workflow and cancellation key triggered before `before` (a log position) that
   * may still be cancelled (queued, processing, paused), optionally only the given recipients'.
   */
  async cancellable(
    environment: string,
    workflow: string,
    cancellationKey: string,
    recipients: readonly RecipientRefT[] | null,
    before: string,
  ): Promise<CancellableRun[]> {
    const params: unknown[] = [environment, workflow, cancellationKey, before];
    let filter = '';
    if (recipients) {
      params.push(
        JSON.stringify(recipients.map((r) => ({ type: r.type, id: r.id, collection: r.type === 'object' ? r.collection : null }))),
      );
      // A run fanned out from an object to one of its subscribers is the object's too.
      filter = `AND EXISTS (SELECT 1 FROM jsonb_to_recordset($5::jsonb) AS x(type text, id text, collection text)
        WHERE (x.type = r.recipient_type AND x.id = r.recipient_id AND x.collection IS NOT DISTINCT FROM r.recipient_collection)
           OR (x.type = 'object' AND r.subscribed_to->>'collection' = x.collection AND r.subscribed_to->>'id' = x.id))`;
    }
    const rows = await this.db.query<Pick<RunRow, 'id' | 'recipient_type' | 'recipient_id' | 'recipient_collection'>[]>(
      `SELECT r.id, r.recipient_type, r.recipient_id, r.recipient_collection FROM rm_workflow_recipient_runs r
       WHERE r.environment = $1 AND r.workflow = $2 AND r.cancellation_key = $3 AND r.status IN ('queued', 'processing', 'paused')
         AND r.trigger_position COLLATE "C" < $4 ${filter}`,
      params,
    );
    return rows.map((r) => ({
      id: r.id,
      recipient:
        r.recipient_type === 'user'
          ? { type: 'user', id: r.recipient_id }
          : { type: 'object', collection: r.recipient_collection!, id: r.recipient_id },
    }));
  }
}
