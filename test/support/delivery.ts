import { generateKeyPairSync } from 'node:crypto';
import type { TestApp } from './test-app';

/**
 * Helpers for the engine's delivery end-to-end tests: channels configured through the management
 * API, workflows upserted and activated with @knocklabs/mgmt, and reads of what the engine
 * recorded (messages, their events and delivery logs).
 */

export async function eventually<T>(
  probe: () => Promise<T | undefined | false | null>,
  timeoutMs = 60_000,
  what = 'a condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ChannelSetup {
  type: string;
  provider: string;
  provider_settings?: Record<string, unknown>;
  channel_settings?: Record<string, unknown>;
  is_sandbox?: boolean;
}

/** PUT /v1/channels/{key} for the development environment; answers the channel's id. */
export async function putChannel(t: TestApp, key: string, setup: ChannelSetup, environment = 'development'): Promise<string> {
  const res = await t.http('PUT', `/v1/channels/${key}`, {
    key: t.serviceToken,
    body: {
      channel: {
        name: key,
        type: setup.type,
        provider: setup.provider,
        environment_settings: {
          [environment]: {
            provider_settings: setup.provider_settings ?? {},
            channel_settings: setup.channel_settings ?? {},
            is_sandbox: setup.is_sandbox ?? false,
          },
        },
      },
    },
  });
  if (res.status !== 200) throw new Error(`PUT /v1/channels/${key}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.channel.id as string;
}

/** Upserts and activates a workflow in development through the official management client. */
export async function putWorkflow(
  t: TestApp,
  key: string,
  steps: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<void> {
  const mgmt = t.mgmt();
  const { workflow } = await mgmt.workflows.upsert(key, { environment: 'development', workflow: { name: key, steps, ...extra } as never });
  if (!workflow.valid) throw new Error(`workflow ${key} is not valid: ${JSON.stringify(workflow)}`);
  await mgmt.workflows.activate(key, { environment: 'development', status: true });
}

export interface MessageRow {
  id: string;
  status: string;
  channel_type: string;
  provider: string;
  attempts: number;
  content: any;
  recipient_snapshot: any;
  actors: any;
  data: any;
  [column: string]: any;
}

/** The one message a run produced for a step, once it exists. */
export async function messageOf(t: TestApp, workflowRunId: string, stepRef: string): Promise<MessageRow> {
  return eventually(
    async () =>
      (await t.sql<MessageRow>('SELECT * FROM rm_messages WHERE workflow_run_id = $1 AND step_ref = $2', [workflowRunId, stepRef]))[0],
    20_000,
    `the ${stepRef} message`,
  );
}

/** Waits for a message to reach one of the given statuses. */
export async function messageWithStatus(t: TestApp, id: string, statuses: string[], timeoutMs = 60_000): Promise<MessageRow> {
  return eventually(
    async () => {
      const [row] = await t.sql<MessageRow>('SELECT * FROM rm_messages WHERE id = $1', [id]);
      return row && statuses.includes(row.status) ? row : undefined;
    },
    timeoutMs,
    `message ${id} to be ${statuses.join(' or ')}`,
  );
}

export async function messageEvents(t: TestApp, id: string): Promise<{ type: string; data: any }[]> {
  return t.sql('SELECT type, data FROM rm_message_events WHERE message_id = $1 ORDER BY inserted_at, type', [id]);
}

/** The message stream's event types in log order (internal ones included). */
export async function messageStreamTypes(t: TestApp, id: string): Promise<string[]> {
  const rows = await t.sql<{ event_type: string }>('SELECT event_type FROM es_events WHERE stream_id LIKE $1 ORDER BY global_position', [
    `message-%-${id}`,
  ]);
  return rows.map((r) => r.event_type);
}

/** Timers a message scheduled, in log order: retries (`delivery_retry`) and attempt checks (`delivery_check`). */
export async function messageTimers(t: TestApp, id: string): Promise<{ timer_id: string; purpose: string; fire_at: string }[]> {
  const rows = await t.sql<{ data: { timer_id: string; purpose: string; fire_at: string } }>(
    "SELECT data FROM es_events WHERE stream_id LIKE $1 AND event_type = 'TimerScheduled' ORDER BY global_position",
    [`message-%-${id}`],
  );
  return rows.map((r) => r.data);
}

export async function deliveryLogs(
  t: TestApp,
  id: string,
): Promise<{ attempt: number; service_name: string; request: any; response: any }[]> {
  return t.sql(
    'SELECT attempt, service_name, request, response FROM rm_message_delivery_logs WHERE message_id = $1 ORDER BY attempt, inserted_at, id',
    [id],
  );
}

/** Where any of the secrets appears in clear: the event log or any read model table. */
export async function secretsAt(t: TestApp, secrets: string[]): Promise<string[]> {
  const found: string[] = [];
  const tables = await t.sql<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  for (const { table_name } of tables) {
    for (const secret of secrets) {
      const [row] = await t.sql<{ n: string }>(`SELECT count(*) AS n FROM "${table_name}" t WHERE t::text LIKE '%' || $1 || '%'`, [secret]);
      if (Number(row.n) > 0) found.push(`${table_name}: ${secret.slice(0, 12)}…`);
    }
  }
  return found;
}

/** Where any of the secrets appears in what a message recorded: its events, its row, its events' rows, its delivery logs. */
export async function secretsInMessage(t: TestApp, id: string, secrets: string[]): Promise<string[]> {
  const sources: [string, string, unknown[]][] = [
    ['message stream', 'SELECT data::text AS v FROM es_events WHERE stream_id LIKE $1', [`message-%-${id}`]],
    ['rm_messages', 'SELECT m::text AS v FROM rm_messages m WHERE id = $1', [id]],
    ['rm_message_events', 'SELECT e::text AS v FROM rm_message_events e WHERE message_id = $1', [id]],
    ['rm_message_delivery_logs', 'SELECT l::text AS v FROM rm_message_delivery_logs l WHERE message_id = $1', [id]],
  ];
  const found: string[] = [];
  for (const [name, query, params] of sources) {
    const text = (await t.sql<{ v: string }>(query, params)).map((r) => r.v).join('\n');
    for (const secret of secrets) if (text.includes(secret)) found.push(`${name}: ${secret.slice(0, 12)}…`);
  }
  return found;
}

/** Signing keys for the push providers: an RSA service account for FCM, an EC P-256 .p8 for APNs. */
export function pushKeys() {
  const fcm = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const apns = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    fcmPublicKey: fcm.publicKey,
    fcmPrivateKeyPem: fcm.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    apnsPublicKey: apns.publicKey,
    apnsPrivateKeyPem: apns.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** The middle lines of a PEM key: what would show if the key leaked in an escaped JSON string. */
export const pemBody = (pem: string) => pem.split('\n').filter((l) => l && !l.startsWith('-----'));
