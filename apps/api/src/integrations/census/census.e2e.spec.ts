import { userStream } from '@notify/domain';
import { activeWorkflow } from '../../../../../test/support/engine';
import { eventually } from '../../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../../test/support/test-app';

/**
 * POST /v1/integrations/census/custom-destination with the JSON-RPC calls Census makes to a
 * custom destination, in the order it makes them: test the connection, list objects and their
 * fields, ask the operations and the sync speed, then sync batches of records.
 */
describe('Census custom destination', () => {
  let t: TestApp;
  let n = 0;
  const rpc = (method: string, params: Record<string, unknown> = {}) =>
    t.http('POST', '/v1/integrations/census/custom-destination', {
      key: t.env.secretKey,
      body: { jsonrpc: '2.0', method, id: `req-${++n}`, params },
    });
  const userObject = { object_api_name: 'user', label: 'Users' };
  const workflowObject = { object_api_name: 'workflow:census-welcome', label: 'Trigger: census-welcome' };
  const idField = (name: string) => ({
    field_api_name: name,
    label: name,
    identifier: true,
    required: true,
    createable: true,
    updateable: false,
    array: false,
    type: 'string',
  });

  beforeAll(async () => {
    t = await startTestApp();
    await activeWorkflow(t, 'census-welcome', {
      trigger_data_json_schema: { type: 'object', properties: { plan: { type: 'string' }, seats: { type: 'integer' } } },
      steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Welcome to {{ data.plan }}' } }],
    });
    await t.http('PUT', '/v1/schemas/user?environment=development', {
      key: t.serviceToken,
      body: { properties: [{ key: 'company_size', type: 'integer' }] },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the discovery calls: connection, objects, fields, operations, sync speed', async () => {
    const test = await rpc('test_connection');
    expect(test.status).toBe(200);
    expect(test.body).toEqual({ jsonrpc: '2.0', id: 'req-1', result: { success: true } });

    const objects = (await rpc('list_objects')).body.result.objects;
    expect(objects).toEqual(expect.arrayContaining([userObject, workflowObject]));

    const userFields = (await rpc('list_fields', { object: userObject })).body.result.fields;
    expect(userFields[0]).toEqual(idField('id'));
    expect(userFields.map((f: { field_api_name: string }) => f.field_api_name)).toEqual(
      expect.arrayContaining(['email', 'name', 'company_size']),
    );
    expect(userFields.find((f: { field_api_name: string }) => f.field_api_name === 'company_size').type).toBe('integer');
    const workflowFields = (await rpc('list_fields', { object: workflowObject })).body.result.fields;
    expect(workflowFields[0]).toEqual(idField('recipient_id'));
    expect(workflowFields.map((f: { field_api_name: string; type: string }) => [f.field_api_name, f.type])).toEqual(
      expect.arrayContaining([
        ['plan', 'string'],
        ['seats', 'integer'],
      ]),
    );

    expect((await rpc('supported_operations', { object: userObject })).body.result).toEqual({ operations: ['upsert'] });
    expect((await rpc('supported_operations', { object: workflowObject })).body.result).toEqual({ operations: ['insert'] });
    const speed = (await rpc('get_sync_speed', { sync_plan: { object: userObject, operation: 'upsert', schema: {} } })).body.result;
    expect(speed.maximum_batch_size).toBeGreaterThan(0);
  });

  it('upserts users from a batch, with a result per record (a record against the user schema fails alone)', async () => {
    const syncPlan = {
      object: userObject,
      operation: 'upsert',
      schema: {
        id: { active_identifier: true, field: idField('id') },
        email: { active_identifier: false, field: { field_api_name: 'email', type: 'string' } },
        company_size: { active_identifier: false, field: { field_api_name: 'company_size', type: 'integer' } },
      },
    };
    const res = await rpc('sync_batch', {
      sync_plan: syncPlan,
      records: [
        { id: 'census-ada', email: 'ada@example.com', company_size: 40 },
        { id: 'census-bob', email: 'bob@example.com', company_size: 'large' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.result.record_results).toEqual([
      { identifier: 'census-ada', success: true },
      { identifier: 'census-bob', success: false, error_message: expect.stringContaining('company_size') },
    ]);
    const ada = await t.http('GET', '/v1/users/census-ada', { key: t.env.secretKey });
    expect(ada.body).toMatchObject({ id: 'census-ada', email: 'ada@example.com', company_size: 40 });
    expect((await t.http('GET', '/v1/users/census-bob', { key: t.env.secretKey })).status).toBe(404);
  });

  it('triggers the workflow once per inserted record, with the other fields as data', async () => {
    const res = await rpc('sync_batch', {
      sync_plan: {
        object: workflowObject,
        operation: 'insert',
        schema: { recipient_id: { active_identifier: true, field: idField('recipient_id') } },
      },
      records: [
        { recipient_id: 'census-ada', plan: 'pro', seats: 3 },
        { recipient_id: 'census-cy', plan: 7 },
      ],
    });
    expect(res.body.result.record_results).toEqual([
      { identifier: 'census-ada', success: true },
      { identifier: 'census-cy', success: false, error_message: expect.stringContaining('plan') },
    ]);
    const messages = await eventually(
      async () => {
        const rows = await t.sql<{ recipient_id: string }>(`SELECT recipient_id FROM rm_messages WHERE workflow_key = 'census-welcome'`);
        return rows.length ? rows : undefined;
      },
      20_000,
      'the message of the triggered run',
    );
    expect(messages.map((m) => m.recipient_id)).toEqual(['census-ada']);
  });

  it('refuses an unknown method or object with 422 invalid_params', async () => {
    const unknown = await rpc('drop_everything');
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('invalid_params');
    const noObject = await rpc('list_fields', { object: { object_api_name: 'workflow:nope', label: 'x' } });
    expect(noObject.status).toBe(422);
    const notJsonRpc = await t.http('POST', '/v1/integrations/census/custom-destination', {
      key: t.env.secretKey,
      body: { method: 'test_connection', id: 'x' },
    });
    expect(notJsonRpc.status).toBe(422);
  });
  /**
   * POST /v1/integrations/hightouch/embedded-destination with the JSON-RPC calls Hightouch makes to
   * an embedded destination (ADR 0158): the configuration calls its sync form makes, then add and
   * change calls with the sync's column mappings. It shares this file's app (and its user schema).
   */
  describe('Hightouch embedded destination', () => {
    let n = 0;
    const rpc = (method: string, params: Record<string, unknown> = {}) =>
      t.http('POST', '/v1/integrations/hightouch/embedded-destination', {
        key: t.env.secretKey,
        body: { jsonrpc: '2.0', method, id: ++n, params },
      });
    const userSync = {
      object: 'user',
      mode: 'upsert',
      identifierMapping: { from: 'user_id', to: 'id' },
      mappings: [
        { from: 'email_address', to: 'email' },
        { from: 'employees', to: 'company_size' },
      ],
    };

    beforeAll(async () => {
      await activeWorkflow(t, 'ht-welcome', {
        trigger_data_json_schema: { type: 'object', properties: { plan: { type: 'string' }, seats: { type: 'integer' } } },
        steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Welcome to {{ data.plan }}' } }],
      });
    });

    it('answers the configuration calls: objects, modes, fields, options, validate, behavior', async () => {
      const objects = await rpc('list_objects');
      expect(objects.status).toBe(200);
      expect(objects.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
      expect(objects.body.result.objects).toEqual(
        expect.arrayContaining([
          { id: 'user', label: 'Users' },
          { id: 'workflow:ht-welcome', label: 'Trigger: ht-welcome' },
        ]),
      );
      expect((await rpc('list_modes', { object: 'user' })).body.result.modes.map((m: { id: string }) => m.id)).toEqual([
        'upsert',
        'mirror',
      ]);
      expect((await rpc('list_modes', { object: 'workflow:ht-welcome' })).body.result.modes.map((m: { id: string }) => m.id)).toEqual([
        'insert',
      ]);
      const userFields = (await rpc('list_fields', { object: 'user', mode: 'upsert' })).body.result.fields;
      expect(userFields[0]).toEqual({ id: 'id', label: 'id', type: 'STRING', identifier: true });
      expect(userFields).toContainEqual({ id: 'company_size', label: 'company_size', type: 'NUMBER', identifier: false });
      const workflowFields = (await rpc('list_fields', { object: 'workflow:ht-welcome', mode: 'insert' })).body.result.fields;
      expect(workflowFields.map((f: { id: string }) => f.id)).toEqual(['recipient_id', 'actor_id', 'tenant', 'plan', 'seats']);
      expect((await rpc('list_options', { object: 'user' })).body.result).toEqual({ options: null });

      expect((await rpc('validate', { configuration: userSync })).body.result).toEqual({ errors: [] });
      expect((await rpc('validate', { configuration: { object: 'workflow:nope', mappings: [] } })).body.result.errors).toEqual([
        'configuration.object: no destination object workflow:nope',
      ]);
      expect((await rpc('behavior', { configuration: userSync })).body.result).toEqual({
        batchSize: 100,
        operations: { add: true, change: true, remove: true },
        skipInitialRun: false,
      });
      expect((await rpc('behavior', { configuration: { object: 'workflow:ht-welcome', mode: 'insert' } })).body.result.operations).toEqual({
        add: true,
        change: false,
        remove: true,
      });
      expect((await rpc('validate', { configuration: { ...userSync, mode: 'insert' } })).body.result.errors).toEqual([
        'configuration.mode must be upsert or mirror',
      ]);
    });

    it('identifies users from added and changed rows through the mappings; a row against the user schema is rejected alone', async () => {
      const added = await rpc('add', {
        idColumn: 'user_id',
        configuration: userSync,
        rows: [
          { user_id: 'ht-ada', email_address: 'ada@example.com', employees: 40, ignored: 'x' },
          { user_id: 'ht-bob', email_address: 'bob@example.com', employees: 'many' },
        ],
      });
      expect(added.status).toBe(200);
      expect(added.body.result).toEqual({ rejectedRows: [{ id: 'ht-bob', reason: expect.stringContaining('company_size') }] });
      const ada = await t.http('GET', '/v1/users/ht-ada', { key: t.env.secretKey });
      expect(ada.body).toMatchObject({ id: 'ht-ada', email: 'ada@example.com', company_size: 40 });
      expect(ada.body.ignored).toBeUndefined();
      expect((await t.http('GET', '/v1/users/ht-bob', { key: t.env.secretKey })).status).toBe(404);

      const changed = await rpc('change', {
        idColumn: 'user_id',
        configuration: userSync,
        rows: [{ user_id: 'ht-ada', email_address: 'ada@new.example.com', employees: 41 }],
      });
      expect(changed.body.result).toEqual({ rejectedRows: [] });
      expect((await t.http('GET', '/v1/users/ht-ada', { key: t.env.secretKey })).body).toMatchObject({ email: 'ada@new.example.com' });
    });

    it('triggers the workflow once per added row, with the mapped fields as data', async () => {
      const res = await rpc('add', {
        idColumn: 'row_id',
        configuration: {
          object: 'workflow:ht-welcome',
          mode: 'insert',
          identifierMapping: { from: 'user_id', to: 'recipient_id' },
          mappings: [{ from: 'plan_name', to: 'plan' }],
        },
        rows: [
          { row_id: 'r1', user_id: 'ht-ada', plan_name: 'pro' },
          { row_id: 'r2', user_id: 'ht-cy', plan_name: 7 },
        ],
      });
      expect(res.body.result).toEqual({ rejectedRows: [{ id: 'r2', reason: expect.stringContaining('plan') }] });
      const messages = await eventually(
        async () => {
          const rows = await t.sql<{ recipient_id: string }>(`SELECT recipient_id FROM rm_messages WHERE workflow_key = 'ht-welcome'`);
          return rows.length ? rows : undefined;
        },
        20_000,
        'the message of the triggered run',
      );
      expect(messages.map((m) => m.recipient_id)).toEqual(['ht-ada']);
    });

    it('syncs a static audience: added rows join, removed rows leave in mirror mode only', async () => {
      const upserted = await t.http('PUT', '/v1/audiences/ht-beta?environment=development', {
        key: t.serviceToken,
        body: { audience: { type: 'static', name: 'Beta' } },
      });
      expect(upserted.status).toBe(200);
      expect((await rpc('list_objects')).body.result.objects).toContainEqual({ id: 'audience:ht-beta', label: 'Audience: Beta' });
      expect((await rpc('list_modes', { object: 'audience:ht-beta' })).body.result.modes.map((m: { id: string }) => m.id)).toEqual([
        'insert',
        'mirror',
      ]);
      expect((await rpc('list_fields', { object: 'audience:ht-beta' })).body.result.fields.map((f: { id: string }) => f.id)).toEqual([
        'user_id',
        'tenant',
      ]);
      const mirror = { object: 'audience:ht-beta', mode: 'mirror', identifierMapping: { from: 'uid', to: 'user_id' }, mappings: [] };
      const insert = { ...mirror, mode: 'insert' };
      expect((await rpc('behavior', { configuration: mirror })).body.result.operations).toEqual({ add: true, change: false, remove: true });
      expect((await rpc('behavior', { configuration: insert })).body.result.operations).toEqual({
        add: true,
        change: false,
        remove: false,
      });
      expect((await rpc('validate', { configuration: { ...mirror, mode: 'upsert' } })).body.result.errors).toEqual([
        'configuration.mode must be insert or mirror',
      ]);

      const members = async () =>
        ((await t.http('GET', '/v1/audiences/ht-beta/members', { key: t.env.secretKey })).body.entries as { user_id: string }[])
          .map((m) => m.user_id)
          .sort();
      const added = await rpc('add', { idColumn: 'uid', configuration: insert, rows: [{ uid: 'ht-m1' }, { uid: 'ht-m2' }, { uid: null }] });
      expect(added.body.result).toEqual({ rejectedRows: [{ id: '', reason: 'the identifier column is empty' }] });
      expect(await members()).toEqual(['ht-m1', 'ht-m2']);

      // Insert only: a removed row changes nothing.
      expect((await rpc('remove', { idColumn: 'uid', configuration: insert, rows: [{ uid: 'ht-m1' }] })).body.result).toEqual({
        rejectedRows: [],
      });
      expect(await members()).toEqual(['ht-m1', 'ht-m2']);
      // Mirror: it leaves the audience.
      expect((await rpc('remove', { idColumn: 'uid', configuration: mirror, rows: [{ uid: 'ht-m1' }] })).body.result).toEqual({
        rejectedRows: [],
      });
      expect(await members()).toEqual(['ht-m2']);
    });

    it('removed user rows: upsert clears the fields the sync maps, mirror deletes the user (ADR 0245)', async () => {
      const user = (id: string) => t.http('GET', `/v1/users/${id}`, { key: t.env.secretKey });
      const rows = [
        { user_id: 'ht-rm-1', email_address: 'one@example.com', employees: 3, name: 'One' },
        { user_id: 'ht-rm-2', email_address: 'two@example.com', employees: 4 },
      ];
      const nameSync = { ...userSync, mappings: [...userSync.mappings, { from: 'name', to: 'name' }] };
      expect((await rpc('add', { idColumn: 'user_id', configuration: nameSync, rows })).body.result).toEqual({ rejectedRows: [] });
      expect((await user('ht-rm-1')).body).toMatchObject({ email: 'one@example.com', company_size: 3 });

      // Hightouch sends the removed rows as they last were; the user stays, without what the sync wrote.
      const cleared = await rpc('remove', { idColumn: 'user_id', configuration: userSync, rows: [rows[0]] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.result).toEqual({ rejectedRows: [] });
      const one = await user('ht-rm-1');
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: 'ht-rm-1', name: 'One' });
      expect([one.body.email ?? null, one.body.company_size ?? null]).toEqual([null, null]);

      const mirror = { ...userSync, mode: 'mirror' };
      const deleted = await rpc('remove', { idColumn: 'user_id', configuration: mirror, rows: [rows[1], { user_id: null }] });
      expect(deleted.body.result).toEqual({ rejectedRows: [{ id: '', reason: 'the identifier column is empty' }] });
      expect((await user('ht-rm-2')).status).toBe(404);
      const events = await t.sql<{ event_type: string }>(
        `SELECT event_type FROM es_events WHERE stream_id = $1 AND event_type IN ('UserDeleted', 'UserErased') ORDER BY global_position`,
        [userStream('development', 'ht-rm-2')],
      );
      expect(events.map((e) => e.event_type)).toEqual(['UserDeleted', 'UserErased']);
    });

    it("a removed workflow row cancels what its added row started, for that row's recipient only (ADR 0245)", async () => {
      await activeWorkflow(t, 'ht-later', {
        steps: [
          { type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'hours', value: 1 } } },
          { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Later' } },
        ],
      });
      const sync = { object: 'workflow:ht-later', mode: 'insert', identifierMapping: { from: 'uid', to: 'recipient_id' }, mappings: [] };
      const rows = [
        { row_id: 'trial-1', uid: 'ht-later-ada' },
        { row_id: 'trial-2', uid: 'ht-later-bob' },
      ];
      expect((await rpc('add', { idColumn: 'row_id', configuration: sync, rows })).body.result).toEqual({ rejectedRows: [] });
      const runs = () =>
        t.sql<{ recipient_id: string; status: string; cancellation_key: string }>(
          `SELECT recipient_id, status, cancellation_key FROM rm_workflow_recipient_runs WHERE workflow = 'ht-later' ORDER BY recipient_id`,
        );
      const paused = await eventually(
        async () => {
          const r = await runs();
          return r.length === 2 && r.every((x) => x.status === 'paused') ? r : undefined;
        },
        20_000,
        'both runs paused at the delay',
      );
      expect(paused.map((r) => r.cancellation_key)).toEqual(['hightouch:trial-1', 'hightouch:trial-2']);

      const removed = await rpc('remove', { idColumn: 'row_id', configuration: sync, rows: [rows[0]] });
      expect(removed.body.result).toEqual({ rejectedRows: [] });
      const after = await eventually(
        async () => {
          const r = await runs();
          return r.some((x) => x.status === 'cancelled') ? r : undefined;
        },
        20_000,
        "the removed row's run cancelled",
      );
      expect(after.map((r) => [r.recipient_id, r.status])).toEqual([
        ['ht-later-ada', 'cancelled'],
        ['ht-later-bob', 'paused'],
      ]);
    });

    it('refuses an unknown method, object or configuration with 422 invalid_params', async () => {
      const unknown = await rpc('drop_everything');
      expect(unknown.status).toBe(422);
      expect(unknown.body.code).toBe('invalid_params');
      expect((await rpc('list_fields', { object: 'workflow:nope' })).status).toBe(422);
      const badConfig = await rpc('add', { configuration: { object: 'user', mappings: 'all' }, rows: [] });
      expect(badConfig.status).toBe(422);
      expect(badConfig.body.errors[0]).toMatchObject({ field: 'params.configuration' });
      const notJsonRpc = await t.http('POST', '/v1/integrations/hightouch/embedded-destination', {
        key: t.env.secretKey,
        body: { method: 'list_objects', id: 'x' },
      });
      expect(notJsonRpc.status).toBe(422);
    });
  });
});
