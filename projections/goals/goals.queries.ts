import { DEFAULT_ATTRIBUTION_WINDOW_DAYS, GoalConditionT, MgmtPageInfoT } from '@notify/contracts';
import { keysetPage } from '@notify/database';
import { DataSource } from 'typeorm';

export interface GoalRecord {
  environment: string;
  key: string;
  name: string;
  condition: GoalConditionT;
  sha: string;
  createdAt: Date;
  updatedAt: Date;
}

interface Row extends Record<string, unknown> {
  environment: string;
  key: string;
  name: string;
  condition: GoalConditionT;
  sha: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'g.environment, g.key, g.name, g.condition, g.sha, g.created_at, g.updated_at';
const toRecord = (r: Row): GoalRecord => ({
  environment: r.environment,
  key: r.key,
  name: r.name,
  condition: r.condition,
  sha: r.sha,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** Goal reads and the runs a goal event could convert; every query is scoped by its environment. */
export class GoalQueries {
  constructor(private readonly db: DataSource) {}

  async get(environment: string, key: string): Promise<GoalRecord | undefined> {
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM rm_goals g WHERE g.environment = $1 AND g.key = $2 AND NOT g.archived`,
      [environment, key],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async list(
    environment: string,
    page: { after?: string; before?: string; limit: number },
  ): Promise<{ entries: GoalRecord[]; page_info: MgmtPageInfoT }> {
    const { rows, pageInfo } = await keysetPage<Row>(this.db, {
      select: COLUMNS,
      from: 'FROM rm_goals g WHERE g.environment = $1 AND NOT g.archived',
      params: [environment],
      order: [
        { expr: 'g.created_at', type: 'timestamptz' },
        { expr: 'g.key', type: 'text' },
      ],
      direction: 'desc',
      pageSize: page.limit,
      after: page.after,
      before: page.before,
      withTotal: false,
    });
    return { entries: rows.map(toRecord), page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size } };
  }

  async environmentExists(slug: string): Promise<boolean> {
    return (await this.db.query<unknown[]>('SELECT 1 FROM rm_environments WHERE slug = $1', [slug])).length > 0;
  }

  /** Goals a source event of this type meets. */
  async forSourceEvent(environment: string, sourceKey: string, event: string): Promise<GoalRecord[]> {
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM rm_goals g WHERE g.environment = $1 AND NOT g.archived
         AND g.condition->'event'->>'integration_source_key' = $2 AND g.condition->'event'->>'event_key' = $3`,
      [environment, sourceKey, event],
    );
    return rows.map(toRecord);
  }

  /** The live goals met by recipient updates (ADR 0247); their match conditions are evaluated by the caller. */
  async forRecipientEvent(environment: string): Promise<GoalRecord[]> {
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM rm_goals g WHERE g.environment = $1 AND NOT g.archived AND g.condition->'event'->>'event_type' = 'recipient'`,
      [environment],
    );
    return rows.map(toRecord);
  }

  /** The live goals met by entering or exiting an audience (ADR 0247). */
  async forAudienceEvent(environment: string, audienceKey: string, event: string): Promise<GoalRecord[]> {
    const rows = await this.db.query<Row[]>(
      `SELECT ${COLUMNS} FROM rm_goals g WHERE g.environment = $1 AND NOT g.archived AND g.condition->'event'->>'event_type' = 'audience'
         AND g.condition->'event'->>'audience_key' = $2 AND g.condition->'event'->>'event_key' = $3`,
      [environment, audienceKey, event],
    );
    return rows.map(toRecord);
  }

  /**
   * A user's runs of the workflows that attach the goal in the version this environment serves
   * (the draft in the first environment, the committed version elsewhere), and of the broadcasts
   * that attach it (runs started by a send), started since `since`,
   * with the runs already converted to the goal.
   */
  async convertibleRuns(
    environment: string,
    goalKey: string,
    userId: string,
    since: Date,
  ): Promise<{
    runs: { run_id: string; workflow_run_id: string; workflow_key: string; started_at: string; attribution_window_days: number }[];
    converted: Set<string>;
  }> {
    const rows = await this.db.query<
      { id: string; workflow_run_id: string; workflow: string; inserted_at: Date; window_days: number | null; converted: boolean }[]
    >(
      `WITH attached AS (
         SELECT r.identifier AS workflow,
                (CASE WHEN e.sort_order = first.sort_order THEN r.draft ELSE r.committed END)->'goal_attachment' AS attachment
           FROM rm_config_resources r
           JOIN rm_environments e ON e.slug = r.environment
           CROSS JOIN (SELECT min(sort_order) AS sort_order FROM rm_environments) first
          WHERE r.environment = $1 AND r.resource_type = 'workflow'),
       -- A broadcast's runs carry its key as their workflow and trigger source 'broadcast' (ADR 0201).
       attached_broadcasts AS (
         SELECT b.key AS workflow, b.content->'goal_attachment' AS attachment FROM rm_broadcasts b
          WHERE b.environment = $1 AND b.content ? 'goal_attachment')
       SELECT w.id, w.workflow_run_id, w.workflow, w.inserted_at, (a.attachment->>'attribution_window_days')::int AS window_days,
              EXISTS (SELECT 1 FROM rm_goal_conversions c WHERE c.environment = $1 AND c.goal_key = $2 AND c.run_id = w.id) AS converted
         FROM (SELECT workflow, attachment, false AS broadcast FROM attached
               UNION ALL SELECT workflow, attachment, true FROM attached_broadcasts) a
         JOIN rm_workflow_recipient_runs w ON w.environment = $1 AND w.workflow = a.workflow
              AND (COALESCE(w.trigger_source->>'type', '') = 'broadcast') = a.broadcast
        WHERE a.attachment->>'goal_key' = $2 AND w.recipient_type = 'user' AND w.recipient_id = $3 AND w.inserted_at >= $4
        ORDER BY w.inserted_at LIMIT 1000`,
      [environment, goalKey, userId, since],
    );
    return {
      runs: rows.map((r) => ({
        run_id: r.id,
        workflow_run_id: r.workflow_run_id,
        workflow_key: r.workflow,
        started_at: new Date(r.inserted_at).toISOString(),
        attribution_window_days: r.window_days ?? DEFAULT_ATTRIBUTION_WINDOW_DAYS,
      })),
      converted: new Set(rows.filter((r) => r.converted).map((r) => r.id)),
    };
  }

  /** Conversions of a goal per workflow. */
  async conversions(
    environment: string,
    goalKey: string,
  ): Promise<{ workflow_key: string; conversions: number; last_converted_at: string | null }[]> {
    const rows = await this.db.query<{ workflow_key: string; conversions: number; last: Date | null }[]>(
      `SELECT workflow_key, count(*)::int AS conversions, max(converted_at) AS last FROM rm_goal_conversions
        WHERE environment = $1 AND goal_key = $2 GROUP BY workflow_key ORDER BY workflow_key`,
      [environment, goalKey],
    );
    return rows.map((r) => ({
      workflow_key: r.workflow_key,
      conversions: r.conversions,
      last_converted_at: r.last ? new Date(r.last).toISOString() : null,
    }));
  }
}
