import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const run = promisify(execFile);
const KNOCK = path.resolve(__dirname, '../../../../node_modules/.bin/knock');
const KNOCK_ROOT = path.dirname(require.resolve('@knocklabs/cli/package.json'));

/**
 * Runs an oclif CLI (its package root) in this process: cwd, environment variables and the
 * standard streams are the command's while it runs, then put back. Commands run one at a time.
 * Settles as execFile does: a failure rejects with the output so far.
 */
async function inProcess(root: string, cwd: string, argv: string[], env: Record<string, string>) {
  // The CLI's own copy of oclif, as its binary loads it.
  const oclif = (await import(require.resolve('@oclif/core', { paths: [root] }))) as {
    run(argv: string[], root: string): Promise<unknown>;
  };
  let stdout = '';
  let stderr = '';
  const saved = {
    cwd: process.cwd(),
    env: { ...process.env },
    out: process.stdout.write,
    err: process.stderr.write,
    exitCode: process.exitCode,
  };
  process.chdir(cwd);
  Object.assign(process.env, env);
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  try {
    await oclif.run(argv, root);
  } catch (error) {
    const exit = (error as { oclif?: { exit?: number } }).oclif?.exit;
    if (exit !== 0) throw new Error(`knock ${argv.join(' ')} failed: ${(error as Error).message}\n${stdout}\n${stderr}`);
  } finally {
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
    for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
    Object.assign(process.env, saved.env);
    process.chdir(saved.cwd);
    process.exitCode = saved.exitCode;
  }
  return { stdout, stderr };
}

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

/** Events in the whole log: an unchanged push appends none. */
async function eventCount(t: TestApp): Promise<number> {
  return Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
}

/** The Knock CLI, unchanged, against this service: every command the README lists. */
describe('Knock CLI', () => {
  let t: TestApp;
  let home: string;
  /** Writes through the management API with the service token. */
  const put = async (path: string, body: unknown) => {
    const res = await t.http('PUT', `${path}?environment=development`, { key: t.serviceToken, body });
    expect(res.status).toBe(200);
  };
  const environment = () => ({ HOME: home, XDG_CONFIG_HOME: home, KNOCK_SERVICE_TOKEN: '' });
  const flags = () => ['--api-origin', t.url, '--service-token', t.serviceToken];
  /** The installed binary, in a process of its own, as a user runs it. */
  const spawned = async (cwd: string, ...args: string[]) => {
    try {
      return await run(KNOCK, [...args, ...flags()], { cwd, env: { ...process.env, ...environment() }, timeout: 60_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`knock ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  };
  /**
   * The same CLI, unchanged, run in this process: its oclif `run` with the argv, working
   * directory and environment the binary would get, its output captured. A process per command
   * cost about 3 s of CPU on CI (the CLI's start loads oclif and every command's modules); the
   * tests that spawn the binary show that its start and output are these.
   */
  const knock = (cwd: string, ...args: string[]) => inProcess(KNOCK_ROOT, cwd, [...args, ...flags()], environment());

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
            {
              ref: 'feed',
              type: 'channel',
              channel_key: 'in-app',
              template: { 'markdown_body@': 'feed/markdown_body.md', action_url: '{{ data.url }}' },
            },
          ],
        },
        null,
        2,
      ),
    );

    await spawned(work, 'workflow', 'push', 'order-shipped');
    const stored = await t.mgmt().workflows.retrieve('order-shipped', { environment: 'development' });
    expect(stored).toMatchObject({ name: 'Order shipped', valid: true, categories: ['orders'] });
    expect(stored.steps[1]).toMatchObject({ channel_key: 'in-app', template: { markdown_body: body, action_url: '{{ data.url }}' } });
    const pushed = await snapshot(dir);
    expect(pushed['feed/markdown_body.md']).toBe(body);
    expect(JSON.parse(pushed['workflow.json'])).toMatchObject({
      name: 'Order shipped',
      steps: [
        expect.anything(),
        expect.objectContaining({ template: expect.objectContaining({ 'markdown_body@': 'feed/markdown_body.md' }) }),
      ],
    });

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
  it('whoami names the account and the service token, and says translations are allowed', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-whoami-'));
    const { stdout } = await knock(cwd, 'whoami');
    expect(stdout).toContain('Account name: Notify');
    expect(stdout).toContain('Service token name: bootstrap');
    // The binary in a process of its own prints the same.
    expect((await spawned(cwd, 'whoami')).stdout).toBe(stdout);
    // A command the service refuses fails in this process as the binary exits non-zero.
    await expect(knock(cwd, 'workflow', 'pull', 'no-such-workflow', '--force')).rejects.toThrow(/failed/);
    await expect(spawned(cwd, 'workflow', 'pull', 'no-such-workflow', '--force')).rejects.toThrow(/failed/);
    const json = JSON.parse((await knock(cwd, 'whoami', '--json')).stdout);
    expect(json).toMatchObject({
      account_name: 'Notify',
      account_slug: 'notify',
      type: 'service_token',
      service_token_name: 'bootstrap',
      user_id: null,
    });
    expect(json.account_features).toMatchObject({ translations_allowed: true });
    await rm(cwd, { recursive: true, force: true });
  });

  it('environment list shows every environment in its order, with who owns it', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-envs-'));
    const added = await t.newEnvironment();
    const listed = JSON.parse((await knock(cwd, 'environment', 'list', '--json')).stdout) as {
      slug: string;
      order: number;
      owner: string;
    }[];
    const bySlug = (slug: string) => listed.find((e) => e.slug === slug);
    expect(bySlug('development')).toMatchObject({ order: 0, owner: 'system' });
    expect(bySlug('production')).toMatchObject({ order: 1, owner: 'system' });
    expect(bySlug(added.slug)).toMatchObject({ owner: 'user' });
    // In their order (then by slug).
    expect(listed.map((e) => [e.order, e.slug])).toEqual(
      [...listed].sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug)).map((e) => [e.order, e.slug]),
    );
    expect((await knock(cwd, 'environment', 'list')).stdout).toContain(`Showing ${listed.length} environments`);
    // The same through @knocklabs/mgmt, one at a time.
    expect(await t.mgmt().environments.retrieve('production')).toMatchObject({
      slug: 'production',
      name: 'Production',
      order: 1,
      deleted_at: null,
    });
    await rm(cwd, { recursive: true, force: true });
  });

  /**
   * Pulls one resource, pushes it back unchanged (nothing is appended), then pushes an edit of
   * one of its files and reads the change back from the service.
   */
  const roundTrip = async (
    command: string,
    key: string,
    file: string,
    edit: (text: string) => string,
    read: () => Promise<unknown>,
    expected: unknown,
  ) => {
    const cwd = await mkdtemp(path.join(tmpdir(), `knock-${command}-`));
    await knock(cwd, command, 'pull', key, '--force');
    const pulled = await snapshot(path.join(cwd, key));
    expect(Object.keys(pulled)).toContain(file);
    const before = await eventCount(t);
    await knock(cwd, command, 'push', key);
    expect(await eventCount(t)).toBe(before);
    await writeFile(path.join(cwd, key, file), edit(pulled[file]));
    await knock(cwd, command, 'push', key);
    expect(await read()).toMatchObject(expected as object);
    await rm(cwd, { recursive: true, force: true });
  };
  const mgmt = () => t.mgmt();

  it('partial pull then push, unchanged and edited', async () => {
    await put('/v1/partials/footer', { partial: { name: 'Footer', type: 'html', content: '<p>Bye, {{ recipient.name }}</p>' } });
    await roundTrip(
      'partial',
      'footer',
      'content.html',
      (html) => html.replace('Bye', 'See you'),
      () => mgmt().partials.retrieve('footer', { environment: 'development' }),
      {
        type: 'html',
        content: '<p>See you, {{ recipient.name }}</p>',
      },
    );
  });

  it('layout pull then push, unchanged and edited', async () => {
    await put('/v1/email_layouts/plain', {
      email_layout: { name: 'Plain', html_layout: '<html><body>{{ content }}</body></html>', text_layout: '{{ content }}' },
    });
    await roundTrip(
      'layout',
      'plain',
      'text_layout.txt',
      (text) => `${text.trimEnd()}\n--\nAcme`,
      () => mgmt().emailLayouts.retrieve('plain', { environment: 'development' }),
      {
        text_layout: '{{ content }}\n--\nAcme',
      },
    );
  });

  it('message-type pull then push, unchanged and edited', async () => {
    await put('/v1/message_types/banner', {
      message_type: {
        name: 'Banner',
        description: 'A banner',
        preview: '<div>{{ title }}</div>',
        variants: [{ key: 'default', name: 'Default', fields: [{ type: 'text', key: 'title', label: 'Title', settings: {} }] }],
      },
    });
    await roundTrip(
      'message-type',
      'banner',
      'preview.html',
      (html) => html.replace('<div>', '<div class="banner">'),
      () => mgmt().messageTypes.retrieve('banner', { environment: 'development' }),
      {
        preview: '<div class="banner">{{ title }}</div>',
      },
    );
  });

  it('guide pull then push, unchanged and edited', async () => {
    const channel = await t.http('PUT', '/v1/channels/guides', {
      key: t.serviceToken,
      body: { channel: { name: 'Guides', type: 'in_app_guide', provider: 'knock-guide', environment_settings: { development: {} } } },
    });
    expect(channel.status).toBe(200);
    await put('/v1/guides/tour', {
      guide: {
        name: 'Tour',
        channel_key: 'guides',
        steps: [{ ref: 'intro', schema_key: 'banner', schema_semver: '1.0.0', schema_variant_key: 'default', values: { title: 'Hi' } }],
      },
    });
    await roundTrip(
      'guide',
      'tour',
      'guide.json',
      (json) => json.replace('"Tour"', '"Product tour"'),
      () => mgmt().guides.retrieve('tour', { environment: 'development' }),
      { name: 'Product tour', steps: [expect.objectContaining({ values: { title: 'Hi' } })] },
    );
  });

  it('audience pull then push, unchanged and edited, and audience archive', async () => {
    await put('/v1/audiences/vip', { audience: { type: 'static', name: 'VIP', description: 'Best customers' } });
    await roundTrip(
      'audience',
      'vip',
      'audience.json',
      (json) => json.replace('"VIP"', '"VIP customers"'),
      () => mgmt().audiences.retrieve('vip', { environment: 'development' }),
      { key: 'vip', name: 'VIP customers', description: 'Best customers', type: 'static' },
    );
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-audience-archive-'));
    const { stdout } = await knock(cwd, 'audience', 'archive', 'vip', '--environment', 'development', '--force');
    expect(stdout).toContain('archived');
    expect((await t.http('GET', '/v1/audiences/vip?environment=development', { key: t.serviceToken })).status).toBe(404);
    await rm(cwd, { recursive: true, force: true });
  });

  it('translation pull then push, unchanged and edited', async () => {
    await put('/v1/translations/fr', {
      translation: { format: 'json', content: JSON.stringify({ greeting: 'Bonjour {{ recipient.name }}' }) },
    });
    const read = async () =>
      JSON.parse((await mgmt().translations.retrieve('fr', { environment: 'development', namespace: '' })).translation.content);
    await roundTrip(
      'translation',
      'fr',
      'fr.json',
      (json) => JSON.stringify({ ...JSON.parse(json), farewell: 'Au revoir' }, null, 2),
      read,
      {
        greeting: 'Bonjour {{ recipient.name }}',
        farewell: 'Au revoir',
      },
    );
  });

  it('pull --knock-dir (no resource type) writes every resource type the service has, and push --knock-dir of it changes nothing', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-all-'));
    await put('/v1/audiences/beta-testers', { audience: { type: 'static', name: 'Beta testers', description: 'Early access' } });
    await knock(cwd, 'pull', '--knock-dir', 'resources', '--force');
    const pulled = await snapshot(path.join(cwd, 'resources'));
    const dirs = new Set(Object.keys(pulled).map((f) => f.split(path.sep)[0]));
    expect([...dirs].sort()).toEqual(['audiences', 'guides', 'layouts', 'message-types', 'partials', 'translations', 'workflows']);
    expect(Object.keys(pulled)).toEqual(
      expect.arrayContaining([
        path.join('audiences', 'beta-testers', 'audience.json'),
        path.join('partials', 'footer', 'partial.json'),
        path.join('translations', 'fr', 'fr.json'),
        path.join('workflows', 'order-shipped', 'workflow.json'),
      ]),
    );

    const before = await eventCount(t);
    const { stdout } = await knock(cwd, 'push', '--knock-dir', 'resources');
    expect(stdout).toContain('Successfully pushed');
    expect(await eventCount(t)).toBe(before);

    await knock(cwd, 'pull', '--knock-dir', 'again', '--force');
    expect(await snapshot(path.join(cwd, 'again'))).toEqual(pulled);
    await rm(cwd, { recursive: true, force: true });
  });
  it('works on a branch: create, push with --branch, commit there, merge into development and delete; switch writes .knockbranch', async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), 'knock-branch-'));
    const dev = { environment: 'development' };
    const before = (await t.mgmt().workflows.retrieve('order-shipped', dev)).name;
    await knock(cwd, 'branch', 'create', 'cli-feature');
    expect(await t.mgmt().branches.retrieve('cli-feature', dev)).toMatchObject({ slug: 'cli-feature', last_commit_at: null });

    await knock(cwd, 'workflow', 'pull', 'order-shipped', '--branch', 'cli-feature', '--force');
    const file = path.join(cwd, 'order-shipped', 'workflow.json');
    const workflow = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...workflow, name: 'Order shipped (branch)' }, null, 2));
    await knock(cwd, 'workflow', 'push', 'order-shipped', '--branch', 'cli-feature');
    expect((await t.mgmt().workflows.retrieve('order-shipped', dev)).name).toBe(before);

    await knock(cwd, 'commit', '--branch', 'cli-feature', '--commit-message', 'Rename on a branch', '--force');
    await knock(cwd, 'branch', 'merge', 'cli-feature', '--delete', '--force');
    expect((await t.mgmt().workflows.retrieve('order-shipped', { ...dev, hide_uncommitted_changes: true })).name).toBe(
      'Order shipped (branch)',
    );
    expect((await t.http('GET', '/v1/branches/cli-feature?environment=development', { key: t.serviceToken })).status).toBe(404);

    // `branch switch --create` makes the branch and keeps its slug in .knockbranch (the default --branch of later commands).
    await knock(cwd, 'branch', 'switch', 'cli-second', '--create', '--force');
    expect((await readFile(path.join(cwd, '.knockbranch'), 'utf8')).trim()).toBe('cli-second');
    await t.mgmt().branches.delete('cli-second', dev);
    await rm(cwd, { recursive: true, force: true });
  });
});
