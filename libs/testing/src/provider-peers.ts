import { createHmac, randomBytes, timingSafeEqual, verify, type KeyObject } from 'node:crypto';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { form, json, type PeerResponse, type RecordedRequest } from './peers';

/**
 * How the providers' APIs answer, as far as the delivery tests need: shared by the provider
 * library's integration tests and the engine's end-to-end tests, which point real providers at
 * local peers built with `startHttpPeer` / `startHttp2Peer` and one of these answers.
 */

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

export interface GoogleTokenCheck {
  /** The token endpoint's own URL: the JWT's `aud`. */
  tokenUrl: string;
  publicKey: KeyObject;
  clientEmail: string;
  keyId: string;
  /** Access tokens handed out, in order. */
  issued: string[];
  nowMs?: number;
}

/**
 * Google's OAuth2 token endpoint: verifies the JWT bearer assertion (RS256 with the service
 * account's public key, its claims) and hands out an access token.
 */
export function googleTokenEndpoint(req: RecordedRequest, check: GoogleTokenCheck): PeerResponse {
  const fields = form(req);
  if (fields.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
    return { status: 400, json: { error: 'unsupported_grant_type' } };
  const [header, claims, signature] = (fields.assertion ?? '').split('.');
  const valid = !!signature && verify('sha256', Buffer.from(`${header}.${claims}`), check.publicKey, Buffer.from(signature, 'base64url'));
  if (!valid) return { status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
  const h = decode(header);
  const c = decode(claims);
  const now = Math.floor((check.nowMs ?? Date.now()) / 1000);
  const claimsOk =
    h.alg === 'RS256' &&
    h.kid === check.keyId &&
    c.iss === check.clientEmail &&
    c.aud === check.tokenUrl &&
    c.scope === 'https://www.googleapis.com/auth/firebase.messaging' &&
    c.exp - c.iat === 3600 &&
    Math.abs(c.iat - now) < 60;
  if (!claimsOk) return { status: 400, json: { error: 'invalid_grant', error_description: 'Invalid JWT claims.' } };
  const accessToken = `ya29.${randomBytes(24).toString('hex')}`;
  check.issued.push(accessToken);
  return { status: 200, json: { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' } };
}

/** An FCM v1 error body. */
export const fcmError = (status: number, code: string, errorCode: string | undefined, message: string): PeerResponse => ({
  status,
  json: {
    error: {
      code: status,
      message,
      status: code,
      details: errorCode ? [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] : [],
    },
  },
});

export const fcmSent = (projectId: string): PeerResponse => ({
  status: 200,
  json: { name: `projects/${projectId}/messages/0:${Math.floor(Math.random() * 1e12)}` },
});

/**
 * One HTTP server playing Google's token endpoint (at `/token`) and FCM v1: a send needs the
 * last access token issued; `answerFor(token)` decides the answer for each device token.
 */
export function fcmApi(
  check: Omit<GoogleTokenCheck, 'nowMs'> & { now?: () => number; answerFor: (token: string) => PeerResponse },
): (req: RecordedRequest) => PeerResponse {
  return (req) => {
    if (req.url === '/token') return googleTokenEndpoint(req, { ...check, nowMs: check.now?.() });
    if (req.headers.authorization !== `Bearer ${check.issued.at(-1)}`)
      return fcmError(401, 'UNAUTHENTICATED', undefined, 'Request had invalid authentication credentials.');
    return check.answerFor(json(req).message.token);
  };
}

/** APNs checks the provider token: ES256 over header.claims with the key the team registered. */
export function apnsProviderTokenProblem(
  req: RecordedRequest,
  check: { publicKey: KeyObject; keyId: string; teamId: string },
): string | undefined {
  const match = /^bearer (.+)$/.exec(req.headers.authorization ?? '');
  if (!match) return 'MissingProviderToken';
  const [header, claims, signature] = match[1].split('.');
  const ok =
    !!signature &&
    verify(
      'sha256',
      Buffer.from(`${header}.${claims}`),
      { key: check.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
  if (!ok) return 'InvalidProviderToken';
  const h = decode(header);
  const c = decode(claims);
  if (h.alg !== 'ES256' || h.kid !== check.keyId || c.iss !== check.teamId || typeof c.iat !== 'number') return 'InvalidProviderToken';
  return undefined;
}

/** APNs over HTTP/2: checks the provider token, echoes `apns-id`; `answerFor(deviceToken)` decides. */
export function apnsApi(check: {
  publicKey: KeyObject;
  keyId: string;
  teamId: string;
  answerFor: (token: string) => PeerResponse;
}): (req: RecordedRequest) => PeerResponse {
  return (req) => {
    const problem = apnsProviderTokenProblem(req, check);
    if (problem) return { status: 403, json: { reason: problem } };
    const answer = check.answerFor(req.url.replace('/3/device/', ''));
    return { ...answer, headers: { 'apns-id': req.headers['apns-id'], ...answer.headers } };
  };
}

/** Resend's POST /emails: one email per Idempotency-Key, the first email's id for every repeat. */
export function resendApi(apiKey: string, emailsByKey = new Map<string, string>()): (req: RecordedRequest) => PeerResponse {
  return (req) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return { status: 401, json: { statusCode: 401, name: 'validation_error', message: 'API key is invalid' } };
    const key = req.headers['idempotency-key'] ?? randomBytes(8).toString('hex');
    if (!emailsByKey.has(key)) emailsByKey.set(key, `4ef9a417-02e9-4d39-ad75-9611e0fcc33${emailsByKey.size}`);
    return { status: 200, json: { id: emailsByKey.get(key) } };
  };
}

/** Twilio's Messages resource: 201 with a message SID, echoing the form. */
export function twilioMessageCreated(req: RecordedRequest): PeerResponse {
  const fields = form(req);
  return {
    status: 201,
    json: {
      sid: `SM${randomBytes(16).toString('hex')}`,
      status: 'queued',
      to: fields.To,
      from: fields.From ?? null,
      messaging_service_sid: fields.MessagingServiceSid ?? null,
      body: fields.Body,
      num_segments: '1',
      error_code: null,
    },
  };
}

/** Slack's chat.postMessage: ok with a `ts` per post. */
export function slackPosted(req: RecordedRequest): PeerResponse {
  const channel = json(req).channel;
  return {
    status: 200,
    json: {
      ok: true,
      channel,
      ts: `${Math.floor(Date.now() / 1000)}.${randomBytes(3).toString('hex')}`,
      message: { text: json(req).text ?? '' },
    },
  };
}

/**
 * What a webhook receiver does, written from the delivery README alone: checks
 * `x-notify-signature` (t, v1 = HMAC-SHA256 of "<t>.<raw body>") within five minutes.
 */
export function webhookReceiverAccepts(req: RecordedRequest, secret: string, nowSeconds = Date.now() / 1000): boolean {
  const header = req.headers['x-notify-signature'];
  if (!header) return false;
  const fields = Object.fromEntries(header.split(',').map((kv) => kv.split('=') as [string, string]));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${fields.t}.${req.body}`).digest();
  const given = Buffer.from(fields.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What AWS does with a Signature V4 request: recomputes the signature over the headers the
 * request says it signed, with the secret key of the access key id it names, and compares.
 * Answers the problem, or undefined when the signature holds.
 */
export async function awsSignatureProblem(
  req: RecordedRequest,
  check: { accessKeyId: string; secretAccessKey: string; region: string; service: string },
): Promise<string | undefined> {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  if (!match) return 'IncompleteSignature';
  const [, keyId, , region, service, signedHeaders] = match;
  if (keyId !== check.accessKeyId) return 'InvalidClientTokenId';
  if (region !== check.region || service !== check.service) return 'SignatureDoesNotMatch';
  const amzDate = req.headers['x-amz-date'] ?? '';
  const date = new Date(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  const url = new URL(req.url, `http://${req.headers.host}`);
  const headers = Object.fromEntries(signedHeaders.split(';').map((name) => [name, req.headers[name] ?? '']));
  const signer = new SignatureV4({
    service,
    region,
    credentials: { accessKeyId: check.accessKeyId, secretAccessKey: check.secretAccessKey },
    sha256: Hash.bind(null, 'sha256'),
  });
  const resigned = await signer.sign(
    {
      method: req.method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: req.body,
    },
    { signingDate: date },
  );
  return resigned.headers.authorization === req.headers.authorization ? undefined : 'SignatureDoesNotMatch';
}

/** The Microsoft identity platform's token endpoint for the client credentials grant. */
export function microsoftTokenEndpoint(req: RecordedRequest, app: { appId: string; password: string; issued: string[] }): PeerResponse {
  const fields = form(req);
  if (fields.grant_type !== 'client_credentials') return { status: 400, json: { error: 'unsupported_grant_type' } };
  if (fields.client_id !== app.appId || fields.client_secret !== app.password)
    return { status: 401, json: { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' } };
  const token = `eyJ0eXAi.${randomBytes(16).toString('hex')}`;
  app.issued.push(token);
  return { status: 200, json: { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: token } };
}

/**
 * Slack's Web API methods the provider lookups call, for one workspace: `conversations.list`
 * (two pages: the cursor is Slack's), `auth.test` and `auth.revoke` with the tokens in `valid`
 * (a revoked token is removed and answers `token_revoked` after).
 */
export function slackWebApi(valid: Set<string>, teamId = 'T0NOTIFY1'): (req: RecordedRequest) => PeerResponse {
  return (req) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const method = req.url.split('?')[0].replace(/^\//, '');
    if (!token) return { status: 200, json: { ok: false, error: 'not_authed' } };
    if (!valid.has(token)) return { status: 200, json: { ok: false, error: method === 'auth.revoke' ? 'invalid_auth' : 'token_revoked' } };
    const fields = form(req);
    if (method === 'auth.test')
      return {
        status: 200,
        json: { ok: true, url: 'https://notify.slack.com/', team: 'Notify', user: 'bot', team_id: teamId, user_id: 'U0BOT' },
      };
    if (method === 'auth.revoke') {
      valid.delete(token);
      return { status: 200, json: { ok: true, revoked: true } };
    }
    if (method === 'conversations.list') {
      const all = [
        { id: 'C0GENERAL1', name: 'general', is_private: false, is_im: false, is_archived: false, context_team_id: teamId },
        { id: 'C0SECRET01', name: 'leads', is_private: true, is_im: false, is_archived: false, context_team_id: teamId },
        { id: 'C0RANDOM01', name: 'random', is_private: false, is_im: false, is_archived: false, context_team_id: teamId },
      ].filter((c) => (fields.types ?? 'public_channel').split(',').includes(c.is_private ? 'private_channel' : 'public_channel'));
      const start = fields.cursor ? Number(Buffer.from(fields.cursor, 'base64').toString().replace('offset:', '')) : 0;
      const limit = Number(fields.limit ?? 100);
      const page = all.slice(start, start + limit);
      const next = start + limit < all.length ? Buffer.from(`offset:${start + limit}`).toString('base64') : '';
      return { status: 200, json: { ok: true, channels: page, response_metadata: { next_cursor: next } } };
    }
    return { status: 200, json: { ok: false, error: 'unknown_method' } };
  };
}

/**
 * The Microsoft identity platform (client credentials, per tenant) and the Graph calls the Teams
 * lookups make: `GET /v1.0/teams` (pages by `$skiptoken`) and `GET /v1.0/teams/{id}/channels`
 * (with `$filter=membershipType eq 'standard'` honoured). Only tenants in `consented` sign in.
 */
export function microsoftGraphApi(app: {
  appId: string;
  password: string;
  issued: string[];
  consented: Set<string>;
}): (req: RecordedRequest) => PeerResponse {
  return (req) => {
    const url = new URL(req.url, 'http://graph.local');
    const token = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (token) {
      if (!app.consented.has(token[1]) && token[1] !== 'botframework.com')
        return {
          status: 400,
          json: { error: 'invalid_client', error_description: `AADSTS700016: Application not found in the directory '${token[1]}'.` },
        };
      return microsoftTokenEndpoint(req, app);
    }
    if (!app.issued.includes(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''))
      return { status: 401, json: { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' } } };
    if (url.pathname === '/v1.0/teams') {
      const teams = [
        { id: '172b0cce-e65d-44ce-9a49-91d9f2e8493a', displayName: 'Engineering', description: 'Builders' },
        { id: '2a3b4c5d-0000-4000-8000-00000000000b', displayName: 'Sales', description: null },
      ];
      const top = Number(url.searchParams.get('$top') ?? 100);
      const skip = Number(url.searchParams.get('$skiptoken') ?? 0);
      const page = teams.slice(skip, skip + top);
      return {
        status: 200,
        json: {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#teams',
          value: page,
          ...(skip + top < teams.length
            ? { '@odata.nextLink': `https://graph.microsoft.com/v1.0/teams?$top=${top}&$skiptoken=${skip + top}` }
            : {}),
        },
      };
    }
    const channels = /^\/v1\.0\/teams\/([^/]+)\/channels$/.exec(url.pathname);
    if (channels) {
      const all = [
        {
          id: '19:general@thread.tacv2',
          displayName: 'General',
          description: null,
          createdDateTime: '2024-01-01T00:00:00Z',
          isArchived: false,
          membershipType: 'standard',
        },
        {
          id: '19:old@thread.tacv2',
          displayName: 'Old',
          description: 'archived',
          createdDateTime: '2023-01-01T00:00:00Z',
          isArchived: true,
          membershipType: 'standard',
        },
        {
          id: '19:private@thread.tacv2',
          displayName: 'Leads',
          description: null,
          createdDateTime: '2024-02-01T00:00:00Z',
          isArchived: false,
          membershipType: 'private',
        },
      ];
      const filter = url.searchParams.get('$filter');
      const kind = filter ? /membershipType eq '(\w+)'/.exec(filter)?.[1] : undefined;
      return { status: 200, json: { value: kind ? all.filter((c) => c.membershipType === kind) : all } };
    }
    return { status: 404, json: { error: { code: 'NotFound', message: `no route ${url.pathname}` } } };
  };
}
