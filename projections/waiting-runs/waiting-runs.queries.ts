import type { RecipientRefT } from '@notify/contracts';
import { DataSource } from 'typeorm';

export interface WaitingRun {
  runId: string;
  stepRef: string;
  waitingFor: Record<string, unknown>;
}

export interface WaitKey {
  recipient: RecipientRefT;
  eventType: string;
  sourceKey: string;
}

export class WaitingRunQueries {
  constructor(private readonly db: DataSource) {}

  /** Every (environment, event type, event key) some run of these environments waits for, as `environment|event_type|event_key`. */
  async awaitedKinds(environments: readonly string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ environment: string; event_type: string; event_key: string }[]>(
      'SELECT DISTINCT environment, event_type, event_key FROM rm_waiting_runs WHERE environment = ANY($1)',
      [environments],
    );
    return new Set(rows.map((r) => `${r.environment}|${r.event_type}|${r.event_key}`));
  }

  /** Runs of the environment waiting for any of these (recipient, event type, source) keys, by key index. */
  async waitingFor(environment: string, keys: readonly WaitKey[]): Promise<(WaitingRun & { key: number })[]> {
    if (keys.length === 0) return [];
    const rows = await this.db.query<{ key: number; run_id: string; step_ref: string; waiting_for: Record<string, unknown> }[]>(
      `SELECT k.key::int AS key, w.run_id, w.step_ref, w.waiting_for
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS k(recipient_type, recipient_collection, recipient_id, event_type, source_key, key)
       JOIN rm_waiting_runs w ON w.environment = $1 AND w.recipient_type = k.recipient_type AND w.recipient_collection = k.recipient_collection
         AND w.recipient_id = k.recipient_id AND w.event_type = k.event_type AND w.source_key = k.source_key
       ORDER BY w.waiting_since`,
      [
        environment,
        keys.map((k) => k.recipient.type),
        keys.map((k) => (k.recipient.type === 'object' ? k.recipient.collection : '')),
        keys.map((k) => k.recipient.id),
        keys.map((k) => k.eventType),
        keys.map((k) => k.sourceKey),
      ],
    );
    return rows.map((r) => ({ key: r.key - 1, runId: r.run_id, stepRef: r.step_ref, waitingFor: r.waiting_for }));
  }
}
