import { signUserToken } from '@knocklabs/node';
import { Channel, Socket } from 'phoenix';
import WebSocket from 'ws';
import { TestApp } from './test-app';

/** The id of the bootstrap in-app feed channel (`in-app`): what browser clients call the feed id. */
export async function inAppChannelId(t: Pick<TestApp, 'sql'>): Promise<string> {
  const [row] = await t.sql<{ id: string }>("SELECT id FROM rm_channels WHERE key = 'in-app'");
  if (!row) throw new Error('no in-app channel');
  return row.id;
}

/** Creates a signing key through the management API and returns its private half. */
export async function createSigningKey(
  t: TestApp,
  environment: string,
  rotate = false,
): Promise<{ id: string; privateKey: string; body: any }> {
  const res = await t.http('POST', `/v1/environments/${environment}/signing_keys${rotate ? '/rotate' : ''}`, { key: t.serviceToken });
  if (res.status !== 201) throw new Error(`signing key not created: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, privateKey: res.body.private_key, body: res.body };
}

export async function setEnhancedSecurity(t: TestApp, environment: string, enabled: boolean): Promise<void> {
  const res = await t.http('PUT', `/v1/environments/${environment}/security`, {
    key: t.serviceToken,
    body: { enhanced_security_mode: enabled },
  });
  if (res.status !== 200) throw new Error(`security not set: ${res.status} ${JSON.stringify(res.body)}`);
}

export const userToken = (userId: string, privateKey: string, expiresInSeconds = 3600) =>
  signUserToken(userId, { signingKey: privateKey, expiresInSeconds });

/** A Phoenix socket as @knocklabs/client opens it (endpoint /ws/v1, params api_key and user_token), over `ws`. */
export function feedSocket(t: Pick<TestApp, 'url'>, params: Record<string, string | undefined>): Socket {
  return new Socket(`${t.url.replace('http', 'ws')}/ws/v1`, {
    params,
    transport: WebSocket as never,
    heartbeatIntervalMs: 30_000,
    reconnectAfterMs: () => 60_000,
  });
}

export function joinChannel(channel: Channel): Promise<{ status: 'ok' | 'error' | 'timeout'; response: any }> {
  return new Promise((resolve) => {
    channel
      .join(5000)
      .receive('ok', (response) => resolve({ status: 'ok', response }))
      .receive('error', (response) => resolve({ status: 'error', response }))
      .receive('timeout', () => resolve({ status: 'timeout', response: undefined }));
  });
}

/** The HTTP answer to a websocket upgrade the server refuses. */
export function refusedUpgrade(url: string): Promise<{ status: number; body: any } | 'opened'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('open', () => {
      ws.close();
      resolve('opened');
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    ws.on('error', (e) => (e.message.includes('Unexpected server response') ? undefined : reject(e)));
  });
}
