import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from './wait';

/** A running S3Proxy: a real S3-compatible server over a temporary folder. */
export interface S3ProxyServer {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** The S3Proxy jar: S3PROXY_JAR (set by `.ci/run` from scripts/s3proxy/fetch.sh), else the fetch script's cache. */
export function s3ProxyJar(): string | undefined {
  if (process.env.S3PROXY_JAR) return process.env.S3PROXY_JAR;
  const cached = path.join(homedir(), '.cache/notify-s3proxy/s3proxy-2.6.0-jar-with-dependencies.jar');
  return existsSync(cached) ? cached : undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Starts S3Proxy on a free loopback port, storing objects in a fresh folder, with signature-checked
 * credentials (AWS v2 or v4), as an S3-compatible bucket store the service can be pointed at.
 */
export async function startS3Proxy(jar: string): Promise<S3ProxyServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'notify-s3proxy-'));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = 'notify-test-identity';
  const secretAccessKey = 'notify-test-credential';
  const properties = path.join(dir, 's3proxy.properties');
  await writeFile(
    properties,
    [
      `s3proxy.endpoint=${endpoint}`,
      's3proxy.authorization=aws-v2-or-v4',
      `s3proxy.identity=${accessKeyId}`,
      `s3proxy.credential=${secretAccessKey}`,
      'jclouds.provider=filesystem',
      `jclouds.filesystem.basedir=${path.join(dir, 'data')}`,
    ].join('\n'),
  );
  let output = '';
  const child: ChildProcess = spawn('java', ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-jar', jar, '--properties', properties], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  child.stdout!.on('data', (b: Buffer) => (output = (output + b.toString()).slice(-4000)));
  child.stderr!.on('data', (b: Buffer) => (output = (output + b.toString()).slice(-4000)));
  const stop = async () => {
    if (!gone) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // Answering means any HTTP status (an anonymous request is refused with 403): the server is up.
    await waitFor(
      async () => {
        if (gone) throw new Error(`S3Proxy exited while starting:\n${output}`);
        return fetch(endpoint).then(
          () => true,
          () => false,
        );
      },
      'S3Proxy answering',
      60_000,
      100,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, accessKeyId, secretAccessKey, stop };
}
