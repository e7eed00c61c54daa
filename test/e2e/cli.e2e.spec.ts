import { eventEnvelope } from '@notify/application';
import { legacyMemberStream } from '@notify/domain';
import { waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { cliCommand } from '../support/cli';
import { secretsAt } from '../support/delivery';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);
const cli = path.resolve(__dirname, '../../dist/apps/cli/src/main.js');

/** The operator CLI against the same database as a running service. */
// A CLI process is a cold node start that loads the service's modules and opens the database:
// on a saturated 2-core machine (CI beside other work) one took over 10 s. The bound stops a hang.
jest.setTimeout(300_000);
const describeServer = describeWith('postgres');

describeServer('cli', () => {
  let t: TestApp;
  const env = () => ({ PATH: process.env.PATH, DATABASE_URL: t.config.DATABASE_URL, LOG_LEVEL: 'error' });
  /** The built binary, as an operator runs it (`npm run cli` runs the same file). */
  const spawned = (...args: string[]) => run(process.execPath, [cli, ...args], { env: env() });
  /**
   * The same commands run in this process: `runCli`, what the binary's main calls, with the
   * environment the binary would get. A process per command cost 2 to 4 s of CPU each on CI (a
   * tenth of the machine's CPU went to this file's and the Knock CLI's processes); the tests
   * that spawn the binary show that its start, its output and its exit codes are these.
   * Settles like execFile: a non-zero exit rejects with { code, stdout, stderr }.
   */
  const inProcess =
    (vars: Record<string, string | undefined>) =>
    async (...args: string[]) => {
      const { code, out: stdout, err: stderr } = await cliCommand(vars, ...args);
      if (code !== 0) throw Object.assign(new Error(`notify ${args.join(' ')} exited with ${code}: ${stderr}`), { code, stdout, stderr });
      return { stdout, stderr };
    };
  const notify = (...args: string[]) => inProcess(env())(...args);

  beforeAll(async () => {
    t = await startTestApp({ backend: 'postgres' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an environment and keys the running service accepts, scoped to that environment (the built binary)', async () => {
    expect((await spawned('environments', 'create', 'staging', '--name', 'Staging')).stdout).toContain('created environment staging');
    const { stdout } = await spawned('keys', 'create', '--environment', 'staging', '--kind', 'secret');
    const key = stdout.trim().split('\n').pop()!;
    expect(key).toMatch(/^sk_[A-Za-z0-9]{40}$/);
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await t.http('PUT', '/v1/users/from-cli', { key, body: { name: 'staged' } })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    expect((await t.http('GET', '/v1/users/from-cli')).status).toBe(404); // development does not see it
  });

  it('lists, creates, rotates and revokes API keys through the management API; a revoked key answers 401', async () => {
    const mgmt = (...args: string[]) =>
      inProcess({ PATH: process.env.PATH, NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: t.serviceToken, LOG_LEVEL: 'error' })(
        'keys',
        ...args,
        '--environment',
        'development',
      );
    const created = JSON.parse((await mgmt('create', '--kind', 'secret', '--name', 'cli-made', '--json')).stdout);
    expect(created).toMatchObject({ kind: 'secret', name: 'cli-made', status: 'active', secret: expect.stringMatching(/^sk_/) });
    expect((await t.http('GET', '/v1/users?page_size=1', { key: created.secret })).status).toBe(200);

    const rotated = (await mgmt('rotate', created.id, '--overlap', '600')).stdout;
    expect(rotated).toMatch(new RegExp(`replacing ${created.id}, which works until \\S+:\\nsk_`));
    const secret = rotated.trim().split('\n').pop()!;
    expect((await t.http('GET', '/v1/users?page_size=1', { key: created.secret })).status).toBe(200);
    expect((await t.http('GET', '/v1/users?page_size=1', { key: secret })).status).toBe(200);
    const listed = (await mgmt('list', '--active')).stdout;
    expect(listed.split('\n').find((l) => l.startsWith(created.id))).toMatch(/expiring/);
    expect(listed).not.toContain(created.secret);

    expect((await mgmt('revoke', created.id)).stdout).toContain(`revoked ${created.id}`);
    expect((await t.http('GET', '/v1/users?page_size=1', { key: created.secret })).status).toBe(401);
    await expect(mgmt('revoke', '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 1 });
  });

  it('creates, rotates, lists and revokes signing keys and turns enhanced security on; the service verifies tokens signed with the printed key', async () => {
    const { signUserToken } = await import('@knocklabs/node');
    const pemOf = (out: string) => /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----/.exec(out)![0];
    const idOf = (out: string) => /signing key ([0-9a-f-]{36})/.exec(out)![1];
    const first = await notify('signing-keys', 'create', '--environment', 'development');
    expect(first.stdout).toContain('-----BEGIN PUBLIC KEY-----');
    const second = await notify('signing-keys', 'rotate', '--environment', 'development');
    expect(second.stdout).toContain(`revoked ${idOf(first.stdout)}`);
    // The list reads the signing keys' read model, which follows the log: wait until it shows the rotation.
    const rotated = new RegExp(`${idOf(second.stdout)}\\s+created \\S+\\s+active`);
    const list = await waitFor(async () => {
      const out = (await notify('signing-keys', 'list', '--environment', 'development')).stdout;
      return rotated.test(out) && out;
    }, 'the rotated key in the list');
    expect(list).toContain(`${idOf(first.stdout)}  created`);
    expect((await notify('environments', 'security', 'development', '--enhanced', 'on')).stdout).toContain(
      'enhanced security mode on for development',
    );

    const token = await signUserToken('cli-user', { signingKey: pemOf(second.stdout) });
    const stale = await signUserToken('cli-user', { signingKey: pemOf(first.stdout) });
    await t.http('PUT', '/v1/users/cli-user', { body: { name: 'C' } });
    const get = (headers: Record<string, string>) => t.http('GET', '/v1/users/cli-user', { key: t.env.publishableKey, headers });
    let missing = await get({});
    for (let i = 0; i < 100 && missing.status !== 401; i++) {
      await new Promise((r) => setTimeout(r, 50));
      missing = await get({});
    }
    expect(missing.body).toMatchObject({ code: 'missing_user_token' });
    expect((await get({ 'x-knock-user-token': token })).status).toBe(200);
    expect((await get({ 'x-knock-user-token': stale })).body).toMatchObject({ code: 'invalid_user_token' });

    expect((await notify('signing-keys', 'revoke', idOf(second.stdout), '--environment', 'development')).stdout).toContain(
      'revoked signing key',
    );
    expect((await notify('environments', 'security', 'development', '--enhanced', 'off')).stdout).toContain('enhanced security mode off');
    const bad = await notify('environments', 'security', 'development', '--enhanced', 'maybe').catch((e) => e);
    expect(bad.code).toBe(2);
    expect((await notify('signing-keys', 'create', '--environment', 'nowhere').catch((e) => e)).stderr).toContain(
      'No environment named nowhere',
    );
  });

  it("erases a user's personal data with the reason recorded; the log keeps the events, sealed", async () => {
    const email = 'erase.by.cli@example.org';
    await t.http('PUT', '/v1/users/cli-erased', { body: { name: 'To Erase', email } });
    await expect(notify('recipients', 'erase', 'cli-erased', '--environment', 'development')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reason is required'),
    });
    const { stdout } = await notify('recipients', 'erase', 'cli-erased', '--environment', 'development', '--reason', 'request #4711');
    expect(stdout).toContain('erased user cli-erased in development (UserDeleted, UserErased)');
    expect((await notify('recipients', 'erase', 'cli-erased', '--environment', 'development', '--reason', 'again')).stdout).toContain(
      'nothing to erase',
    );
    const stream = await t.store.readStream('user-development-cli-erased');
    const erased = stream.find((e) => e.type === 'UserErased')!;
    expect(erased.data).toMatchObject({ user_id: 'cli-erased', reason: 'request #4711' });
    expect(erased.metadata).toMatchObject({ actor: 'cli' });
    expect(stream.find((e) => e.type === 'UserIdentified')!.data).toMatchObject({ properties: { $erased: true } });
    const [found] = await t.sql<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE data::text LIKE '%' || $1 || '%'`, [email]);
    expect(Number(found.n)).toBe(0);
  });

  it('adds a member the management API then lists, shows and removes (@knocklabs/mgmt)', async () => {
    const added = await notify('members', 'add', 'Jane@Example.com', '--role', 'admin', '--name', 'Jane Doe');
    expect(added.stdout).toMatch(/^member [0-9a-f-]{36}: jane@example.com \(admin\)\n$/);
    const mgmt = t.mgmt();
    const listed = async (query = {}) => {
      const out = [];
      for await (const m of mgmt.members.list(query)) out.push(m);
      return out;
    };
    await waitFor(async () => (await listed()).length === 1, 'the member in the read model');
    const [member] = await listed({ role: 'admin' });
    expect(member).toMatchObject({ role: 'admin', user: { email: 'jane@example.com', name: 'Jane Doe', avatar_url: null } });
    expect(await listed({ role: 'owner' })).toEqual([]);
    expect(await listed({ email: 'JANE@example.com' })).toHaveLength(1);
    expect(await mgmt.members.retrieve(member.id)).toEqual(member);

    const bad = await t.http('GET', '/v1/members?role=boss', { key: t.serviceToken });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['role']);
    expect((await t.http('GET', '/v1/members/not-a-uuid', { key: t.serviceToken })).status).toBe(422);

    // The address is in no stream id and no event in clear (ADR 0220): keyed stream, sealed fields.
    const streams = await t.sql<{ stream_id: string }>("SELECT DISTINCT stream_id FROM es_events WHERE event_type = 'MemberAdded'");
    expect(streams.map((r) => r.stream_id)).toContainEqual(expect.stringMatching(/^member-[0-9a-f]{40}$/));
    expect((await t.sql<{ n: string }>("SELECT count(*) AS n FROM es_events e WHERE e::text LIKE '%jane@example.com%'"))[0].n).toBe('0');

    await mgmt.members.delete(member.id);
    expect((await t.http('GET', `/v1/members/${member.id}`, { key: t.serviceToken })).status).toBe(404);
    expect((await t.http('DELETE', `/v1/members/${member.id}`, { key: t.serviceToken })).status).toBe(404);

    // Removing a member erases it: the address and name are in no table, and read as erased in the log.
    expect(await secretsAt(t, ['jane@example.com', 'Jane Doe'])).toEqual([]);
    const log = await t.http('GET', '/v1/events?types=MemberAdded&types=MemberRemoved&limit=500', { key: t.serviceToken });
    const mine = log.body.entries.filter((e: { data: { member_id: string } }) => e.data.member_id === member.id);
    expect(mine.map((e: { type: string; data: { email: unknown } }) => [e.type, e.data.email])).toEqual([
      ['MemberAdded', { $erased: true }],
      ['MemberRemoved', { $erased: true }],
    ]);
    expect(JSON.stringify(log.body)).not.toContain('jane@example.com');
    const rebuilt = await notify('projections', 'rebuild', 'members');
    expect(rebuilt.stdout).toMatch(/rebuilt members/);
    expect(await secretsAt(t, ['jane@example.com', 'Jane Doe'])).toEqual([]);
    // The address can be a member again: a new member, with a key of its own.
    expect((await notify('members', 'add', 'jane@example.com', '--role', 'support')).stdout).not.toContain(member.id);
  });

  it('re-keys a member still on its legacy member-<email> stream when it is next changed, keeping its id', async () => {
    const email = 'legacy-member@example.com';
    const memberId = randomUUID();
    const meta = { environment: null, actor: 'test' };
    const added = { member_id: memberId, user_id: randomUUID(), email, name: null, role: 'admin', added_at: new Date().toISOString() };
    await t.store.append(legacyMemberStream(email), [eventEnvelope('MemberAdded', added, randomUUID(), meta)], {
      expectedRevision: 'no_stream',
    });
    const changed = await notify('members', 'add', email, '--role', 'owner');
    expect(changed.stdout).toBe(`member ${memberId}: ${email} (owner)\n`);
    const legacy = await t.store.readStream(legacyMemberStream(email));
    expect(legacy.map((e) => e.type)).toEqual(['MemberAdded', 'MemberRekeyed']);
    const keyed = await t.store.readStream((legacy[1].data as { stream: string }).stream);
    expect(keyed.map((e) => [e.type, (e.data as { member_id: string }).member_id])).toEqual([
      ['MemberAdded', memberId],
      ['MemberRoleChanged', memberId],
    ]);
    await waitFor(async () => (await t.sql("SELECT 1 FROM rm_members WHERE id = $1 AND role = 'owner'", [memberId])).length === 1, 'role');
    expect((await t.http('DELETE', `/v1/members/${memberId}`, { key: t.serviceToken })).status).toBe(204);
    expect((await t.sql('SELECT 1 FROM rm_members WHERE id = $1', [memberId])).length).toBe(0);
  });

  it('purges legacy member-<email> streams: the address is in no table afterwards, the deletion is recorded and verify is clean', async () => {
    const email = 'legacy-purge@example.com';
    const memberId = randomUUID();
    const meta = { environment: null, actor: 'test' };
    const added = { member_id: memberId, user_id: randomUUID(), email, name: null, role: 'member', added_at: new Date().toISOString() };
    await t.store.append(legacyMemberStream(email), [eventEnvelope('MemberAdded', added, randomUUID(), meta)], {
      expectedRevision: 'no_stream',
    });
    await waitFor(async () => (await t.sql('SELECT 1 FROM rm_members WHERE id = $1', [memberId])).length === 1, 'member row');
    // Removing erases the member, but the legacy stream's id still holds the address (the gap ADR 0240 closes).
    expect((await t.http('DELETE', `/v1/members/${memberId}`, { key: t.serviceToken })).status).toBe(204);
    await waitFor(async () => (await t.sql('SELECT 1 FROM rm_members WHERE id = $1', [memberId])).length === 0, 'member row gone');
    expect(await secretsAt(t, [email])).toEqual(
      expect.arrayContaining([expect.stringMatching(/^es_events/), expect.stringMatching(/^es_streams/)]),
    );
    // A member still on a legacy stream is re-keyed by the purge, not lost.
    const kept = 'legacy-kept@example.com';
    const keptId = randomUUID();
    await t.store.append(
      legacyMemberStream(kept),
      [eventEnvelope('MemberAdded', { ...added, member_id: keptId, email: kept }, randomUUID(), meta)],
      {
        expectedRevision: 'no_stream',
      },
    );
    expect((await t.http('POST', '/v1/events/verify', { key: t.serviceToken })).body).toMatchObject({ ok: true, findings: [] });

    const { stdout } = await notify('members', 'purge-legacy-streams', '--reason', 'e2e');
    // This file's earlier test left one more legacy stream (re-keyed): each ends with MemberRekeyed after its MemberAdded.
    expect(stdout).toMatch(/^purged \d+ legacy member stream\(s\), \d+ event\(s\); recorded in log_redaction-[0-9a-f-]{36}\n$/);
    expect(await secretsAt(t, [email])).toEqual([]);
    const record = await t.sql<{ data: { streams: { member_stream: string; events: number }[]; reason: string } }>(
      "SELECT data FROM es_events WHERE event_type = 'LegacyMemberStreamsPurged'",
    );
    expect(record[0].data.reason).toBe('e2e');
    expect(record[0].data.streams.length).toBeGreaterThanOrEqual(2);
    expect(record[0].data.streams.every((x) => x.events === 2 && /^member-[0-9a-f]{40}$/.test(x.member_stream))).toBe(true);
    expect(JSON.stringify(record)).not.toContain('@example.com');
    expect((await notify('members', 'add', kept, '--role', 'admin')).stdout).toBe(`member ${keptId}: ${kept} (admin)\n`);
    expect((await t.http('POST', '/v1/events/verify', { key: t.serviceToken })).body).toMatchObject({ ok: true, findings: [] });
    expect((await notify('members', 'purge-legacy-streams')).stdout).toBe('no legacy member stream\n');
  });

  it('rejects bad usage with exit code 2 and the usage line (the built binary)', async () => {
    const failure = await spawned('keys', 'create', '--environment', 'staging', '--kind', 'root').catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain('--kind must be secret or publishable');
  });

  it('rebuilds a read model from the log to the same rows', async () => {
    for (let i = 0; i < 5; i++) await t.http('PUT', `/v1/users/rb-${i}`, { body: { n: i } });
    await t.http('DELETE', '/v1/users/rb-2');
    const before = await t.sql('SELECT * FROM rm_users ORDER BY environment, id');
    const { stdout } = await notify('projections', 'rebuild', 'users');
    expect(stdout).toMatch(/rebuilt users: \d+ events/);
    expect(await t.sql('SELECT * FROM rm_users ORDER BY environment, id')).toEqual(before);
    expect(before.map((u: { id: string }) => u.id)).not.toContain('rb-2');
  });

  it('verifies a rebuild against the live read model: identical, then the row edited behind its back', async () => {
    for (let i = 0; i < 3; i++) await t.http('PUT', `/v1/users/vf-${i}`, { body: { n: i } });
    const same = await notify('projections', 'rebuild', 'users', '--verify');
    expect(same.stdout).toMatch(/verified users at [0-9a-f]{32}: \d+ events in \d+ ms \(\d+ events\/s\); rm_users \d+ rows.*; identical/);
    await t.sql(`UPDATE rm_users SET properties = '{"n": 99}' WHERE environment = 'development' AND id = 'vf-1'`);
    const edited = await notify('projections', 'rebuild', 'users', '--verify').catch((e) => e);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('DIFFERENT');
    expect(edited.stdout).toContain('rm_users: 1 rows only in the live table, 1 only in the rebuilt one');
    expect(edited.stdout).toMatch(/live +\{.*"id":"vf-1".*"n":99/);
    // The live read model is left as it was; a rebuild puts it right.
    await notify('projections', 'rebuild', 'users');
    expect((await notify('projections', 'rebuild', 'users', '--verify')).stdout).toContain('identical');
  });

  it('every read model equals its rebuild from the log after users, runs and messages', async () => {
    await t.http('PUT', '/v1/users/vf-all', { body: { name: 'All' } });
    const triggered = await t.http('POST', '/v1/workflows/welcome/trigger', { body: { recipients: ['vf-all'], data: { message: 'hi' } } });
    expect(triggered.status).toBe(200);
    const deadline = Date.now() + 60_000;
    while (Number((await t.sql<{ n: string }>(`SELECT count(*) AS n FROM rm_messages WHERE recipient_id = 'vf-all'`))[0].n) === 0) {
      if (Date.now() > deadline) throw new Error('no message');
      await new Promise((r) => setTimeout(r, 50));
    }
    const all = await notify('projections', 'rebuild', '--all', '--verify').catch((e) => e);
    const verified = all.stdout.split('\n').filter((l: string) => l.startsWith('verified'));
    expect(verified.length).toBe(t.runtime.projections.length);
    expect(verified.filter((l: string) => !l.endsWith('identical'))).toEqual([]);
    expect(all.stdout).toMatch(/verified messages at [0-9a-f]{32}: [1-9]\d* events/);
    expect(all.code ?? 0).toBe(0);
  });
});
