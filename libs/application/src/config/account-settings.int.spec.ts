import { channelDecider, ChannelEvent, channelStream, fold, variableDecider, VariableEvent, variableStream } from '@notify/domain';
import { EventStore, PostgresEventStore } from '@notify/eventstore';
import { createTestDatabase, databaseBackends, racingAppends, TestDatabase } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { createDefaultRegistry } from '@notify/delivery';
import { ensureFirstRunConfiguration, FEED_CHANNEL_KEY, LEGACY_FEED_PROVIDER } from '../environments/first-run-configuration';
import { toDomainEvent } from '../handle-command';
import { AccountSettingsDeps, configureChannel, upsertVariable } from './account-settings';
import { SecretBox } from './secret-box';

const meta = { environment: null, actor: 'test' };

for (const backend of databaseBackends()) {
  describe(`concurrent updates of account-wide settings on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const box = new SecretBox(randomBytes(32));
    const deps = (s: EventStore): AccountSettingsDeps => ({ store: s, box, environmentExists: async () => true });

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    it('keeps both of two channel updates made at once to different environments', async () => {
      const key = `email-${backend}`;
      const channel = { name: 'Email', type: 'email' as const, provider: 'smtp' };
      await configureChannel(
        deps(store),
        key,
        { ...channel, environment_settings: { development: { provider_settings: { host: 'dev.example' } } } },
        meta,
      );

      const [one, two] = racingAppends(store, channelStream(key)).map(deps);
      await Promise.all([
        configureChannel(
          one,
          key,
          { ...channel, environment_settings: { development: { provider_settings: { host: 'dev2.example', api_key: 'dev-secret' } } } },
          meta,
        ),
        configureChannel(
          two,
          key,
          {
            ...channel,
            environment_settings: { production: { provider_settings: { host: 'prod.example' } }, staging: { is_sandbox: true } },
          },
          meta,
        ),
      ]);

      const history = await store.readStream(channelStream(key));
      expect(history).toHaveLength(3); // the first configure and both updates: neither was dropped
      const settings = fold(channelDecider, history.map(toDomainEvent) as ChannelEvent[]).current!.environment_settings;
      expect(Object.keys(settings).sort()).toEqual(['development', 'production', 'staging']);
      expect(settings.development.provider_settings).toMatchObject({ host: 'dev2.example' });
      expect(box.open(settings.development.provider_settings.api_key as never)).toBe('dev-secret');
      expect(settings.production.provider_settings).toEqual({ host: 'prod.example' });
      expect(settings.staging.is_sandbox).toBe(true);
    });

    it('keeps both of two variable updates made at once to different environments and fields', async () => {
      const key = `api_base_${backend}`;
      await upsertVariable(
        deps(store),
        key,
        { value: 'https://default.example', environment_values: { development: 'https://dev.example' } },
        meta,
      );

      const [one, two] = racingAppends(store, variableStream(key)).map(deps);
      await Promise.all([
        upsertVariable(one, key, { environment_values: { production: 'https://prod.example' } }, meta),
        upsertVariable(
          two,
          key,
          { description: 'Where requests go', environment_values: { staging: 'https://staging.example', development: null } },
          meta,
        ),
      ]);

      const history = await store.readStream(variableStream(key));
      expect(history).toHaveLength(3);
      const current = fold(variableDecider, history.map(toDomainEvent) as VariableEvent[]).current!;
      expect(current).toMatchObject({
        value: 'https://default.example',
        description: 'Where requests go',
        environment_values: { production: 'https://prod.example', staging: 'https://staging.example' },
      });
      expect(current.environment_values).not.toHaveProperty('development');
    });

    it('leaves no value in clear when one writer makes a variable secret while another adds a value', async () => {
      const key = `token_${backend}`;
      await upsertVariable(deps(store), key, { value: 'public-default' }, meta);

      const [one, two] = racingAppends(store, variableStream(key)).map(deps);
      const results = await Promise.allSettled([
        upsertVariable(one, key, { type: 'secret', value: 'now-secret' }, meta),
        upsertVariable(two, key, { environment_values: { production: 'prod-token' } }, meta),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);

      const current = fold(variableDecider, (await store.readStream(variableStream(key))).map(toDomainEvent) as VariableEvent[]).current!;
      expect(current.type).toBe('secret');
      // Whichever came second was merged on the state the first left: nothing stays in clear.
      expect(typeof current.value).not.toBe('string');
      expect(typeof current.environment_values.production).not.toBe('string');
      expect(box.open(current.environment_values.production as never)).toBe('prod-token');
    });

    it('gives the first-run feed channel the settings of two environments set up at once, and changes nothing on a second run', async () => {
      const stream = channelStream(FEED_CHANNEL_KEY);
      const [one, two] = racingAppends(store, stream);
      await Promise.all([
        ensureFirstRunConfiguration(one, 'alpha', { actor: 'test' }),
        ensureFirstRunConfiguration(two, 'beta', { actor: 'test' }),
      ]);
      const configured = await store.readStream(stream);
      const settings = fold(channelDecider, configured.map(toDomainEvent) as ChannelEvent[]).current!.environment_settings;
      expect(Object.keys(settings).sort()).toEqual(['alpha', 'beta']);

      await ensureFirstRunConfiguration(store, 'alpha', { actor: 'test' });
      expect(await store.readStream(stream)).toHaveLength(configured.length);
    });

    it("gives the first-run feed channel the in-app provider's id, moving one made with the legacy id, keeping one chosen since", async () => {
      const stream = channelStream(FEED_CHANNEL_KEY);
      const provider = async () =>
        fold(channelDecider, (await store.readStream(stream)).map(toDomainEvent) as ChannelEvent[]).current!.provider;
      const inApp = createDefaultRegistry().list('in_app_feed')[0].id;
      expect(await provider()).toBe(inApp);

      const feed = { name: 'In-app feed', type: 'in_app_feed' as const };
      await configureChannel(deps(store), FEED_CHANNEL_KEY, { ...feed, provider: LEGACY_FEED_PROVIDER }, meta);
      await ensureFirstRunConfiguration(store, 'alpha', { actor: 'test' });
      expect(await provider()).toBe(inApp);
      const settings = fold(channelDecider, (await store.readStream(stream)).map(toDomainEvent) as ChannelEvent[]).current!
        .environment_settings;
      expect(Object.keys(settings).sort()).toEqual(['alpha', 'beta']);

      await configureChannel(deps(store), FEED_CHANNEL_KEY, { ...feed, provider: 'custom-feed' }, meta);
      await ensureFirstRunConfiguration(store, 'alpha', { actor: 'test' });
      expect(await provider()).toBe('custom-feed');
    });
  });
}
