import { snsCertificateAllowed, snsOriginAllowed } from '@notify/delivery';

const FETCH_TIMEOUT_MS = 5_000;
const MAX_CACHED = 32;

/**
 * Amazon SNS signing certificates, fetched only from the allowed origins (SNS_CERTIFICATE_ORIGINS:
 * AWS's by default; a test points it at a local peer) and kept once fetched (they are
 * rotated under a new URL). The same origins bound where a subscription confirmation may go.
 */
export class SnsCertificates {
  private readonly cache = new Map<string, Promise<string>>();

  constructor(
    private readonly origins: readonly string[],
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  certificate = (url: string): Promise<string> => {
    if (!snsCertificateAllowed(url, this.origins))
      return Promise.reject(new Error(`${new URL(url).origin} is not an allowed certificate origin`));
    let found = this.cache.get(url);
    if (!found) {
      found = this.get(url).then((text) => {
        if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error('not a PEM certificate');
        return text;
      });
      found.catch(() => this.cache.delete(url));
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(url, found);
    }
    return found;
  };

  confirmSubscription = async (url: string): Promise<void> => {
    if (!snsOriginAllowed(url, this.origins)) throw new Error(`${new URL(url).origin} is not an allowed SNS origin`);
    await this.get(url);
  };

  private async get(url: string): Promise<string> {
    const response = await this.fetchImpl(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${new URL(url).origin}`);
    return response.text();
  }
}
