import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium; .ci/run installs it when missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is required for the browser test and is not at ${CHROMIUM} (apt-get install -y chromium)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

export interface FeedPage {
  url: string;
  close(): Promise<void>;
}

/**
 * Bundles test/browser/feed-page.mjs (React and the @knocklabs/react components) with esbuild and
 * serves it with its configuration from its own origin, as an application would.
 */
export function serveFeedPage(config: {
  host: string;
  publishableKey: string;
  userId: string;
  userName?: string;
  userToken?: string;
  feedId: string;
}): Promise<FeedPage> {
  return servePage('feed-page', config);
}

/**
 * Bundles test/browser/<name>.mjs with esbuild and serves it with its configuration (as
 * window.__NOTIFY__) from its own origin.
 */
export async function servePage(name: string, config: Record<string, unknown>): Promise<FeedPage> {
  const outdir = await mkdtemp(path.join(tmpdir(), `notify-${name}-`));
  await build({
    entryPoints: [path.resolve(__dirname, `../browser/${name}.mjs`)],
    bundle: true,
    outdir,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'css' },
    logLevel: 'silent',
  });
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${name}</title><link rel="stylesheet" href="/${name}.css"></head>
<body><div id="root"></div><script>window.__NOTIFY__ = ${JSON.stringify(config)};</script><script src="/${name}.js"></script></body></html>`;
  const files: Record<string, [string, string]> = {
    '/': ['text/html', html],
    [`/${name}.js`]: ['text/javascript', await readFile(path.join(outdir, `${name}.js`), 'utf8')],
    [`/${name}.css`]: ['text/css', await readFile(path.join(outdir, `${name}.css`), 'utf8')],
  };
  const server: Server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0]];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(outdir, { recursive: true, force: true });
    },
  };
}
