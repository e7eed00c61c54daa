import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const run = promisify(execFile);
const KNOCK = path.resolve(__dirname, '../../../../node_modules/.bin/knock');

/** Every file under `dir`, relative path -> content. */
async function snapshot(dir: string, base = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(out, await snapshot(full, base));
    else out[path.relative(base, full)] = await readFile(full, 'utf8');
  }
  return out;
}

/** The Knock CLI, unchanged, against this service. */
describe('Knock CLI', () => {
  let t: TestApp;
  let home: string;
  const knock = async (cwd: string, ...args: string[]) => {
    try {
      return await run(KNOCK, [...args, '--api-origin', t.url, '--service-token', t.serviceToken], { cwd, env: { ...process.env, HOME: home, XDG_CONFIG_HOME: home, KNOCK_SERVICE_TOKEN: '' }, timeout: 60_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`knock ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  };

  beforeAll(async () => {
    t = await startTestApp();
    home = await mkdtemp(path.join(tmpdir(), 'knock-home-'));
  });
  afterAll(async () => {
    await t?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('pushes a workflow directory with extracted template files and pulls it back unchanged', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'knock-push-'));
    const dir = path.join(work, 'order-shipped');
    await mkdir(path.join(dir, 'feed'), { recursive: true });
    const body = 'Your order **{{ data.order_id }}** has shipped, {{ recipient.name }}.\n';
    await writeFile(path.join(dir, 'feed', 'markdown_body.md'), body);
    await writeFile(
      path.join(dir, 'workflow.json'),
      JSON.stringify(
        {
          name: 'Order shipped',
          categories: ['orders'],
          steps: [
            { ref: 'wait', type: 'delay', settings: { delay_for: { unit: 'minutes', value: 10 } } },
            { ref: 'feed', type: 'channel', channel_key: 'in-app', template: { 'markdown_body@': 'feed/markdown_body.md', action_url: '{{ data.url }}' } },
          ],
        },
        null,
        2,
      ),
    );

    await knock(work, 'workflow', 'push', 'order-shipped');
    const stored = await t.mgmt().workflows.retrieve('order-shipped', { environment: 'development' });
    expect(stored).toMatchObject({ name: 'Order shipped', valid: true, categories: ['orders'] });
    expect(stored.steps[1]).toMatchObject({ channel_key: 'in-app', template: { markdown_body: body, action_url: '{{ data.url }}' } });
    const pushed = await snapshot(dir);
    expect(pushed['feed/markdown_body.md']).toBe(body);
    expect(JSON.parse(pushed['workflow.json'])).toMatchObject({ name: 'Order shipped', steps: [expect.anything(), expect.objectContaining({ template: expect.objectContaining({ 'markdown_body@': 'feed/markdown_body.md' }) })] });

    const elsewhere = await mkdtemp(path.join(tmpdir(), 'knock-pull-'));
    await knock(elsewhere, 'workflow', 'pull', 'order-shipped', '--force');
    expect(await snapshot(path.join(elsewhere, 'order-shipped'))).toEqual(pushed);

    // Pushing the pulled directory again changes nothing.
    const before = Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
    await knock(elsewhere, 'workflow', 'push', 'order-shipped');
    expect(Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c)).toBe(before);
    await rm(work, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('activates a workflow with the status in the query, as the CLI sends it', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-activate-'));
    await knock(cwd, 'workflow', 'activate', 'order-shipped', '--environment', 'development', '--force');
    expect((await t.mgmt().workflows.retrieve('order-shipped', { environment: 'development' })).active).toBe(true);
    await knock(cwd, 'workflow', 'activate', 'order-shipped', '--environment', 'development', '--status', 'false', '--force');
    expect((await t.mgmt().workflows.retrieve('order-shipped', { environment: 'development' })).active).toBe(false);
    await rm(cwd, { recursive: true, force: true });
  });

  it('commits and promotes with the CLI', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-commit-'));
    await knock(cwd, 'commit', '--commit-message', 'Ship it', '--force');
    await knock(cwd, 'commit', 'promote', '--to', 'production', '--force');
    const prod = await t.mgmt().workflows.retrieve('order-shipped', { environment: 'production' });
    expect(prod).toMatchObject({ name: 'Order shipped', environment: 'production', valid: true });
    await rm(cwd, { recursive: true, force: true });
  });
});
