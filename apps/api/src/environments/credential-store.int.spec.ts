import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { ReadModelCredentialStore } from './credential-store';

/**
 * API keys read per request, grouped under load (ADR 0277): the answers are each request's own,
 * a revoked or expired key is refused by the next read, and requests that arrive while a read
 * is in flight share one statement.
 */
describe.each(databaseBackends())('ReadModelCredentialStore API keys (%s)', (backend) => {
  let db: TestDatabase;
  let store: ReadModelCredentialStore;
  const ids = { live: randomUUID(), revoked: randomUUID(), expired: randomUUID(), other: randomUUID() };

  const insertKey = (hash: string, keyId: string, environment: string, extra = '') =>
    db.database.dataSource.query(
      `INSERT INTO rm_api_keys (key_hash, key_id, environment, kind, hint, issued_at, revoked_at, expires_at)
       VALUES ($1, $2, $3, 'secret', 'sk_...', now(), ${extra || 'NULL, NULL'})`,
      [hash, keyId, environment],
    );

  beforeAll(async () => {
    db = await createTestDatabase(backend);
    await insertKey('h-live', ids.live, 'development');
    await insertKey('h-revoked', ids.revoked, 'development', "now() - interval '1 minute', NULL");
    await insertKey('h-expired', ids.expired, 'development', "NULL, now() - interval '1 minute'");
    await insertKey('h-other', ids.other, 'production');
    await db.database.dataSource.query(`UPDATE rm_credentials_version SET position = '00000042' WHERE id = 1`);
    store = new ReadModelCredentialStore(db.database);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('answers each request with its own key, the active ones only, in fewer statements than requests', async () => {
    const before = store.apiKeys.statements;
    const asked = ['h-live', 'h-revoked', 'h-other', 'h-missing', 'h-expired', 'h-live', 'h-other', 'h-live'];
    const found = await Promise.all(asked.map((hash) => store.findApiKey(hash)));
    expect(found.map((k) => k && { keyId: k.keyId, environment: k.environment })).toEqual([
      { keyId: ids.live, environment: 'development' },
      undefined,
      { keyId: ids.other, environment: 'production' },
      undefined,
      undefined,
      { keyId: ids.live, environment: 'development' },
      { keyId: ids.other, environment: 'production' },
      { keyId: ids.live, environment: 'development' },
    ]);
    // The credentials version is read in the same statement as the key.
    expect(found[0]).toMatchObject({ kind: 'secret', credentialsVersion: '00000042' });
    // The first request went out alone; the seven asked while it was in flight shared the next.
    expect(store.apiKeys.statements - before).toBe(2);
  });

  it('refuses a key revoked before the request, on the next read', async () => {
    expect(await store.findApiKey('h-other')).toMatchObject({ keyId: ids.other });
    await db.database.dataSource.query(`UPDATE rm_api_keys SET revoked_at = now() WHERE key_hash = 'h-other'`);
    expect(await store.findApiKey('h-other')).toBeUndefined();
  });
});
