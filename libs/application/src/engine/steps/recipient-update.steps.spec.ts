import type { StepNode } from '@notify/domain';
import type { RecordedEvent } from '@notify/eventstore';
import { parseRecipientGid, UpdateObjectStep, UpdateTenantStep, UpdateUserStep } from './recipient-update.steps';
import { stepContext } from './step-context.fixture';

/** A store that only reads, from fixed streams. */
function readOnlyStore(streams: Record<string, { type: string; data: unknown }[]> = {}) {
  return {
    readStream: async (id: string) => (streams[id] ?? []).map((e, i) => ({ ...e, revision: i, streamId: id }) as unknown as RecordedEvent),
  } as never;
}

const step = (type: string, settings: Record<string, unknown>): StepNode => ({ type, ref: 'upd', settings });

describe('recipient update steps', () => {
  it('parses recipient gids', () => {
    expect(parseRecipientGid('gid://Object/$users/ada')).toEqual({ kind: 'user', id: 'ada' });
    expect(parseRecipientGid('gid://Object/$tenants/acme')).toEqual({ kind: 'tenant', id: 'acme' });
    expect(parseRecipientGid('gid://Object/projects/p%201')).toEqual({ kind: 'object', collection: 'projects', id: 'p 1' });
    expect(parseRecipientGid('gid://User/ada')).toBeUndefined();
  });

  it('update_user (current) appends what changes to the recipient stream and shows it to later steps', async () => {
    const store = readOnlyStore({
      'user-test-ada': [
        { type: 'UserIdentified', data: { user_id: 'ada', properties: { name: 'Ada', plan: 'free' }, identified_at: 'x' } },
      ],
    });
    const ctx = stepContext(
      step('update_user', { recipient_mode: 'current', update_properties: '{"plan": "{{ data.plan }}", "name": "Ada"}' }),
      { data: { plan: 'pro' }, deps: { store } },
    );
    const outcome = await new UpdateUserStep().execute(ctx);
    expect(outcome).toMatchObject({
      flow: 'continue',
      status: 'ok',
      output: { target: 'gid://Object/$users/ada' },
      variables: { recipient: { id: 'ada', name: 'Ada', plan: 'pro' } },
    });
    expect(outcome.appends).toEqual([
      {
        streamId: 'user-test-ada',
        expectedRevision: 0,
        events: [
          expect.objectContaining({
            type: 'UserIdentified',
            data: expect.objectContaining({ user_id: 'ada', properties: { plan: 'pro' } }),
          }),
        ],
      },
    ]);
    // The same step executed again yields the same event id.
    const again = await new UpdateUserStep().execute(ctx);
    expect(again.appends![0].events[0].id).toBe(outcome.appends![0].events[0].id);
  });

  it('appends nothing when nothing changes, and refuses invalid or aspect properties', async () => {
    const store = readOnlyStore({
      'user-test-ada': [{ type: 'UserIdentified', data: { user_id: 'ada', properties: { plan: 'pro' }, identified_at: 'x' } }],
    });
    const same = await new UpdateUserStep().execute(
      stepContext(step('update_user', { recipient_mode: 'current', update_properties: '{"plan": "pro"}' }), { deps: { store } }),
    );
    expect(same).toMatchObject({ flow: 'continue', status: 'ok', appends: [], output: { changed: [] } });
    const bad = await new UpdateUserStep().execute(
      stepContext(step('update_user', { recipient_mode: 'current', update_properties: '{"email": 7}' }), { deps: { store } }),
    );
    expect(bad).toMatchObject({
      flow: 'continue',
      status: 'error',
      reason: expect.stringContaining('update_user: invalid properties: email'),
    });
    const aspects = await new UpdateUserStep().execute(
      stepContext(step('update_user', { recipient_mode: 'current', update_properties: '{"channel_data": {}}' }), { deps: { store } }),
    );
    expect(aspects).toMatchObject({ status: 'error', reason: 'update_user: channel_data cannot be changed by a workflow step' });
  });

  it('update_object and update_tenant by reference; update_tenant without a tenant is skipped', async () => {
    const store = readOnlyStore();
    const object = await new UpdateObjectStep().execute(
      stepContext(
        step('update_object', { recipient_gid: 'gid://Object/projects/{{ data.project }}', update_properties: '{"status": "done"}' }),
        { data: { project: 'p1' }, deps: { store } },
      ),
    );
    expect(object.appends).toEqual([
      {
        streamId: 'object-test-projects-p1',
        expectedRevision: 'no_stream',
        events: [expect.objectContaining({ type: 'ObjectSet', data: expect.objectContaining({ properties: { status: 'done' } }) })],
      },
    ]);
    const tenant = await new UpdateTenantStep().execute(
      stepContext(
        step('update_tenant', {
          recipient_mode: 'reference',
          recipient_gid: 'gid://Object/$tenants/acme',
          update_properties: '{"name": "Acme"}',
        }),
        { deps: { store } },
      ),
    );
    expect(tenant.appends?.[0]).toMatchObject({ streamId: 'tenant-test-acme', events: [expect.objectContaining({ type: 'TenantSet' })] });
    const none = await new UpdateTenantStep().execute(
      stepContext(step('update_tenant', { recipient_mode: 'current', update_properties: '{"name": "x"}' }), { deps: { store } }),
    );
    expect(none).toEqual({ flow: 'continue', status: 'skipped', reason: 'run_has_no_tenant' });
    const wrong = await new UpdateUserStep().execute(
      stepContext(
        step('update_user', { recipient_mode: 'reference', recipient_gid: 'gid://Object/$tenants/acme', update_properties: '{}' }),
        { deps: { store } },
      ),
    );
    expect(wrong).toMatchObject({ status: 'error', reason: 'update_user: recipient_gid gid://Object/$tenants/acme does not name a user' });
  });
});
