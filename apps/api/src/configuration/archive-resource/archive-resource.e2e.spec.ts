import { rebuildAndCompare } from '../../../../../test/support/rebuild';
import { configureChannel } from '../../../../../test/support/channels';
import { startTestApp, TestApp } from '../../../../../test/support/test-app';

const feedStep = { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi {{ recipient.id }}' } };

/** Archiving workflows, email layouts and partials (ADR 0225): not in the reference, so over raw HTTP. */
describe('archiving workflows, layouts and partials', () => {
  let t: TestApp;
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const keys = async (path: string) => {
    const res = await svc('GET', path);
    expect(res.status).toBe(200);
    return (res.body.entries as { key: string }[]).map((e) => e.key);
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('archives a workflow in every environment: it leaves the lists, cannot be triggered, and upserting the key starts anew', async () => {
    const upsert = await svc('PUT', '/v1/workflows/old-digest?environment=development&commit=true', {
      workflow: { name: 'Old digest', steps: [feedStep] },
    });
    expect(upsert.status).toBe(200);
    expect((await svc('PUT', '/v1/commits/promote?to_environment=production')).status).toBe(200);
    expect((await svc('PUT', '/v1/workflows/old-digest/activate?environment=development', { status: true })).status).toBe(200);
    expect((await t.http('POST', '/v1/workflows/old-digest/trigger', { body: { recipients: ['ada'] } })).status).toBe(200);

    const archived = await svc('DELETE', '/v1/workflows/old-digest?environment=development');
    expect([archived.status, archived.body]).toEqual([200, { result: 'success' }]);

    for (const environment of ['development', 'production']) {
      expect(await keys(`/v1/workflows?environment=${environment}`)).not.toContain('old-digest');
      expect(await keys(`/v1/workflows?environment=${environment}&archived=only`)).toEqual(['old-digest']);
    }
    expect(await keys('/v1/workflows?environment=development&archived=include')).toEqual(expect.arrayContaining(['old-digest', 'welcome']));
    const listed = await svc('GET', '/v1/workflows?environment=development&archived=only');
    expect(listed.body.entries[0]).toMatchObject({ key: 'old-digest', name: 'Old digest', active: false, deleted_at: expect.any(String) });
    expect((await svc('GET', '/v1/workflows/old-digest?environment=development')).status).toBe(404);

    const trigger = await t.http('POST', '/v1/workflows/old-digest/trigger', { body: { recipients: ['ada'] } });
    expect(trigger.status).toBe(404);
    expect(trigger.body).toMatchObject({ code: 'workflow_archived', status: 404, type: expect.any(String), message: expect.any(String) });

    const events = await t.sql<{ stream_id: string }>(
      "SELECT stream_id FROM es_events WHERE event_type = 'WorkflowArchived' ORDER BY stream_id",
    );
    expect(events.map((e) => e.stream_id)).toEqual(['workflow-development-old-digest', 'workflow-production-old-digest']);

    // Archiving again: nothing more is recorded; an unknown key is a 404 in the error shape.
    expect((await svc('DELETE', '/v1/workflows/old-digest?environment=development')).status).toBe(404);
    const missing = await svc('DELETE', '/v1/workflows/never-was?environment=development');
    expect(missing.body).toMatchObject({ code: 'resource_missing', status: 404 });

    const again = await svc('PUT', '/v1/workflows/old-digest?environment=development', {
      workflow: { name: 'New digest', steps: [feedStep] },
    });
    expect(again.body.workflow).toMatchObject({ name: 'New digest', active: false });
    expect(again.body.workflow.deleted_at).toBeUndefined();
    expect(await keys('/v1/workflows?environment=development')).toContain('old-digest');
    expect(await keys('/v1/workflows?environment=development&archived=only')).toEqual([]);
    // Inactive after being archived: triggering is refused as for any inactive workflow.
    expect((await t.http('POST', '/v1/workflows/old-digest/trigger', { body: { recipients: ['ada'] } })).body.code).toBe(
      'workflow_inactive',
    );
  });

  it('does not bring an archived workflow back by promoting a commit made before it was archived', async () => {
    await svc('PUT', '/v1/workflows/late-one?environment=development&commit=true', { workflow: { name: 'Late', steps: [feedStep] } });
    expect((await svc('DELETE', '/v1/workflows/late-one?environment=development')).status).toBe(200);
    expect((await svc('PUT', '/v1/commits/promote?to_environment=production')).status).toBe(200);
    expect(await keys('/v1/workflows?environment=production')).not.toContain('late-one');
    expect(await keys('/v1/workflows?environment=production&archived=include')).not.toContain('late-one');
    expect((await svc('GET', '/v1/workflows/late-one?environment=production')).status).toBe(404);
  });

  it('archives layouts and partials: out of the lists unless asked for', async () => {
    const layout = await svc('PUT', '/v1/email_layouts/plain-old?environment=development', {
      email_layout: { name: 'Plain old', html_layout: '<p>{{ content }}</p>', text_layout: '{{ content }}' },
    });
    expect(layout.status).toBe(200);
    const partial = await svc('PUT', '/v1/partials/old-footer?environment=development', {
      partial: { name: 'Old footer', type: 'html', content: '<p>Bye</p>' },
    });
    expect(partial.status).toBe(200);

    expect((await svc('DELETE', '/v1/email_layouts/plain-old?environment=development')).body).toEqual({ result: 'success' });
    expect((await svc('DELETE', '/v1/partials/old-footer?environment=development')).body).toEqual({ result: 'success' });

    expect(await keys('/v1/email_layouts?environment=development')).not.toContain('plain-old');
    expect(await keys('/v1/partials?environment=development')).not.toContain('old-footer');
    const layouts = await svc('GET', '/v1/email_layouts?environment=development&archived=only');
    expect(layouts.body.entries).toEqual([expect.objectContaining({ key: 'plain-old', archived_at: expect.any(String) })]);
    const partials = await svc('GET', '/v1/partials?environment=development&archived=include');
    expect(partials.body.entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'old-footer', archived_at: expect.any(String) })]),
    );
    expect((await svc('GET', '/v1/partials/old-footer?environment=development')).status).toBe(404);

    const bad = await svc('GET', '/v1/partials?environment=development&archived=maybe');
    expect(bad.body).toMatchObject({ code: 'invalid_params', status: 422, errors: [expect.objectContaining({ field: 'archived' })] });
  });

  it('refuses to archive a layout or partial a workflow still uses, naming the workflows, until none does', async () => {
    const email = await configureChannel(t, { type: 'email', provider: 'postmark', environments: ['development', 'production'] });
    await svc('PUT', '/v1/email_layouts/lay3?environment=development', {
      email_layout: { name: 'Lay 3', html_layout: '<div>{{ content }}</div>', text_layout: '{{ content }}' },
    });
    await svc('PUT', '/v1/partials/sig?environment=development', { partial: { name: 'Sig', type: 'html', content: '<p>Sig</p>' } });
    await svc('PUT', '/v1/partials/rendered?environment=development', { partial: { name: 'R', type: 'html', content: '<p>R</p>' } });
    const template = {
      subject: 'Hi',
      visual_blocks: [
        { type: 'markdown', content: 'Hello {% render "rendered" %}' },
        { type: 'partial', key: 'sig', name: 'Sig', attrs: {} },
      ],
      settings: { layout_key: 'lay3' },
    };
    const saved = await svc('PUT', '/v1/workflows/mailer?environment=development&commit=true', {
      workflow: { name: 'Mailer', steps: [{ type: 'channel', ref: 'mail', channel_key: email.key, template }] },
    });
    expect(saved.body.workflow).toMatchObject({ valid: true });
    expect((await svc('PUT', '/v1/workflows/mailer/activate?environment=development', { status: true })).status).toBe(200);

    for (const path of ['/v1/email_layouts/lay3', '/v1/partials/sig', '/v1/partials/rendered']) {
      const refused = await svc('DELETE', `${path}?environment=development`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'resource_in_use',
        status: 409,
        type: expect.any(String),
        message: expect.stringContaining('workflow mailer'),
      });
    }
    // Nothing was archived: still served, the workflow still valid.
    expect(await keys('/v1/email_layouts?environment=development')).toContain('lay3');
    expect(await keys('/v1/partials?environment=development')).toEqual(expect.arrayContaining(['sig', 'rendered']));

    // Only the latest version uses the layout no longer, the committed one does: still refused.
    await svc('PUT', '/v1/workflows/mailer?environment=development', {
      workflow: {
        name: 'Mailer',
        steps: [{ type: 'channel', ref: 'mail', channel_key: email.key, template: { ...template, settings: {} } }],
      },
    });
    expect((await svc('DELETE', '/v1/email_layouts/lay3?environment=development')).status).toBe(409);
    // Once committed without it, the layout can go (the partials, still used, cannot).
    expect((await svc('PUT', '/v1/commits?environment=development&commit_message=no-layout')).status).toBe(200);
    expect((await svc('DELETE', '/v1/email_layouts/lay3?environment=development')).body).toEqual({ result: 'success' });
    expect((await svc('DELETE', '/v1/partials/sig?environment=development')).status).toBe(409);

    // Archiving the workflow frees what it used.
    expect((await svc('DELETE', '/v1/workflows/mailer?environment=development')).status).toBe(200);
    expect((await svc('DELETE', '/v1/partials/sig?environment=development')).body).toEqual({ result: 'success' });
  });

  it('archives in a branch only the branch copy', async () => {
    await svc('PUT', '/v1/workflows/branchy?environment=development&commit=true', { workflow: { name: 'Branchy', steps: [feedStep] } });
    expect((await svc('POST', '/v1/branches/tidy-up?environment=development')).status).toBe(201);
    const archived = await svc('DELETE', '/v1/workflows/branchy?environment=development&branch=tidy-up');
    expect(archived.status).toBe(200);
    expect(await keys('/v1/workflows?environment=development&branch=tidy-up')).not.toContain('branchy');
    expect(await keys('/v1/workflows?environment=development')).toContain('branchy');
  });

  it('rebuilds the configuration read model, archived resources included, to exactly the live result', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['config-resources']);
    expect(live.rm_archived_config_resources.length).toBeGreaterThan(0);
    expect(rebuilt).toEqual(live);
  });
});
