import { RecipientRefT } from '@notify/contracts';
import { DataSource } from 'typeorm';

/** More than this many runs or messages of one recipient are not gathered into one history read. */
export const RECIPIENT_ACTIVITY_CAP = 10_000;

/**
 * Which runs and messages concern one recipient. Only ids come from the read models: an
 * auditor's history reads the events themselves from the log (ADR 0175).
 */
export class RecipientActivityQueries {
  constructor(private readonly db: DataSource) {}

  async of(
    environment: string,
    recipient: RecipientRefT,
  ): Promise<{ runs: { id: string; workflowRunId: string }[]; messageIds: string[] }> {
    const params = [
      environment,
      recipient.type,
      recipient.id,
      recipient.type === 'object' ? recipient.collection : null,
      RECIPIENT_ACTIVITY_CAP,
    ];
    const who = `environment = $1 AND recipient_type = $2 AND recipient_id = $3 AND recipient_collection IS NOT DISTINCT FROM $4`;
    const [runs, messages] = await Promise.all([
      this.db.query<{ id: string; workflow_run_id: string }[]>(
        `SELECT id, workflow_run_id FROM rm_workflow_recipient_runs WHERE ${who} ORDER BY inserted_at, id LIMIT $5`,
        params,
      ),
      this.db.query<{ id: string }[]>(`SELECT id FROM rm_messages WHERE ${who} ORDER BY inserted_at, id LIMIT $5`, params),
    ]);
    return { runs: runs.map((r) => ({ id: r.id, workflowRunId: r.workflow_run_id })), messageIds: messages.map((m) => m.id) };
  }
}
