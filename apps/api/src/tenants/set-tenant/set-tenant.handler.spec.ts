import type { RecipientDeps } from '@notify/application';
import type { EventStore } from '@notify/eventstore';
import type { ReadYourWrites } from '@notify/platform';
import type { TenantQueries } from '@notify/projections/tenants';
import { SetTenantCommand } from './set-tenant.command';
import { SetTenantHandler } from './set-tenant.handler';

/** A store holding no tenant yet that records what is appended. */
function emptyStore(): { store: EventStore; appended: { type: string; data: unknown }[] } {
  const appended: { type: string; data: unknown }[] = [];
  const store = {
    readStream: async () => [],
    append: async (streamId: string, events: { type: string; data: unknown }[]) => {
      appended.push(...events);
      return { streamId, position: '0'.repeat(31) + '1', nextRevision: events.length - 1 };
    },
  } as unknown as EventStore;
  return { store, appended };
}

const ctx = { environment: 'development', requestId: 'req-1', credential: { kind: 'secret_key', id: 'k1' } } as never;

describe('SetTenantHandler', () => {
  it('answers the tenant as written when the read models did not catch up in time, not 404', async () => {
    const { store, appended } = emptyStore();
    const settle = jest.fn(async () => undefined);
    const get = jest.fn(async () => undefined);
    const handler = new SetTenantHandler(
      { store, channels: {}, subscriptions: {} } as unknown as RecipientDeps,
      { settle } as unknown as ReadYourWrites,
      { get } as unknown as TenantQueries,
    );
    const tenant = await handler.execute(
      new SetTenantCommand(ctx, 'acme', { name: 'Acme', plan: 'pro', settings: { branding: { primary_color: '#112233' } } } as never),
    );
    expect(appended.map((e) => e.type)).toEqual(['TenantSet']);
    expect(settle).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith('development', 'acme');
    expect(tenant).toMatchObject({
      __typename: 'Tenant',
      id: 'acme',
      name: 'Acme',
      plan: 'pro',
      settings: { branding: { primary_color: '#112233', dark_primary_color: '#112233' }, preference_set: null },
    });
  });

  it('answers what the read model shows once it has caught up', async () => {
    const { store } = emptyStore();
    const shown = {
      __typename: 'Tenant',
      id: 'acme',
      name: 'Acme',
      settings: null,
      created_at: null,
      updated_at: '2030-01-01T00:00:00.000Z',
    };
    const handler = new SetTenantHandler(
      { store, channels: {}, subscriptions: {} } as unknown as RecipientDeps,
      { settle: async () => undefined } as unknown as ReadYourWrites,
      { get: async () => shown } as unknown as TenantQueries,
    );
    expect(await handler.execute(new SetTenantCommand(ctx, 'acme', { name: 'Acme' } as never))).toBe(shown);
  });
});
