import http from 'node:http';

/**
 * A plain GET over keep-alive connections, for latency measurements where the client must cost
 * little: the bench process shares the machine's cores with the service and the database, and
 * `fetch` (undici) allocates enough per request that the client's own garbage collection
 * (incremental marking, weak-reference callbacks of 5-10 ms) shows up in the measured tail.
 * Resolves with the status once the whole body has arrived.
 */
export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  /** A bound function, so it can be passed around as the measuring loop's `get`. */
  readonly get = (url: string, headers: Record<string, string> = {}): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = http.get(url, { agent: this.agent, headers }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
    });

  close(): void {
    this.agent.destroy();
  }
}
