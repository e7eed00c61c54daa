import { z } from 'zod';
import { stringSetting } from './settings';
import { text } from './settings-schema';

/** The credentials and region of an AWS provider's settings. */
export const awsSettings = {
  access_key_id: text(),
  secret_access_key: text(),
  session_token: z.string().optional(),
  region: z
    .string({ error: 'is required' })
    .trim()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region such as us-east-1'),
};

export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Signs a request with AWS Signature Version 4, using the SDK's own signer
 * (@smithy/signature-v4, what every @aws-sdk client signs with), so the request can then go out
 * through the outbound client like every other provider call (ADR 0206).
 */
export async function signAws(
  settings: Record<string, unknown>,
  service: string,
  request: { method: string; url: string; headers: Record<string, string>; body: string },
  now: Date = new Date(),
): Promise<SignedRequest> {
  const url = new URL(request.url);
  // Loaded on first use: most installations never send through an AWS provider.
  const [{ Hash }, { SignatureV4 }] = await Promise.all([import('@smithy/hash-node'), import('@smithy/signature-v4')]);
  const signer = new SignatureV4({
    service,
    region: stringSetting(settings, 'region')!,
    credentials: {
      accessKeyId: stringSetting(settings, 'access_key_id')!,
      secretAccessKey: stringSetting(settings, 'secret_access_key')!,
      ...(stringSetting(settings, 'session_token') ? { sessionToken: stringSetting(settings, 'session_token') } : {}),
    },
    sha256: Hash.bind(null, 'sha256'),
  });
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...request.headers, host: url.host },
      body: request.body,
    },
    { signingDate: now },
  );
  const { host: _host, ...headers } = signed.headers;
  return { url: request.url, headers, body: request.body };
}

/** The public endpoint of an AWS service in a region. */
export const awsEndpoint = (prefix: string, settings: Record<string, unknown>) =>
  `https://${prefix}.${stringSetting(settings, 'region')}.amazonaws.com`;
