import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { SecretBox } from '../config/secret-box';
import { ReadModelLookups } from './read-model-lookups';

for (const backend of databaseBackends()) {
  describe(`ReadModelLookups on ${backend}: a batch's channels and variables`, () => {
    let db: TestDatabase;
    const box = new SecretBox(randomBytes(32));
    const at = '2026-11-26T12:00:00Z';

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      const channel = (key: string, settings: Record<string, unknown>, archived = false) =>
        db.database.dataSource.query(
          `INSERT INTO rm_channels (id, key, name, type, provider, environment_settings, created_at, updated_at, archived_at)
           VALUES ($1, $2, $2, 'email', 'postmark', $3, $4, $4, $5)`,
          [randomUUID(), key, JSON.stringify(settings), at, archived ? at : null],
        );
      const sealed = box.seal('pm-secret');
      await channel('mail', { development: { channel_settings: { from: 'a@b.c' }, provider_settings: { api_key: sealed } } });
      await channel('prod-only', { production: { provider_settings: {} } });
      await channel('old', { development: { provider_settings: {} } }, true);
      const variable = (key: string, value: unknown, own: Record<string, unknown>) =>
        db.database.dataSource.query(
          `INSERT INTO rm_variables (key, type, value, environment_values, inserted_at, updated_at) VALUES ($1, 'public', $2, $3, $4, $4)`,
          [key, JSON.stringify(value), JSON.stringify(own), at],
        );
      await variable('greeting', 'hello', { development: 'hi' });
      await variable('fallback', 'default', { production: 'prod' });
      await variable('nulled', 'kept', { development: null });
      await variable('secret', box.seal('s3cret'), {});
    });
    afterAll(() => db.close());

    it('reads them in one statement for the batch, with what channelByKey and vars answer one at a time', async () => {
      const lookups = new ReadModelLookups(db.database.dataSource, box);
      const single = {
        mail: await lookups.channelByKey('development', 'mail'),
        prodOnly: await lookups.channelByKey('development', 'prod-only'),
        old: await lookups.channelByKey('development', 'old'),
        vars: await lookups.vars('development'),
      };
      expect(single.mail?.settings?.provider_settings).toEqual({ api_key: 'pm-secret' });
      expect(single.prodOnly).toBeUndefined();
      expect(single.old).toBeUndefined();
      expect(single.vars).toEqual({ greeting: 'hi', fallback: 'default', nulled: 'kept', secret: 's3cret' });

      const query = jest.spyOn(db.database.dataSource, 'query');
      try {
        const batch = lookups.forBatch();
        const [mail, prodOnly, old, vars] = await Promise.all([
          batch.channelByKey('development', 'mail'),
          batch.channelByKey('development', 'prod-only'),
          batch.channelByKey('development', 'old'),
          batch.vars('development'),
        ]);
        expect({ mail, prodOnly, old, vars }).toEqual(single);
        expect(await batch.vars('development')).toBe(vars);
        expect(query).toHaveBeenCalledTimes(1);
      } finally {
        query.mockRestore();
      }
    });
  });
}
