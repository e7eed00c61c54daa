import Knock from '@knocklabs/node';
import { cliCommand } from '../../../../test/support/cli';
import { activeWorkflow, feed, uniqueKey } from '../../../../test/support/engine';
import { eventually } from '../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const daily = (hours: number, minutes = 0, over: Record<string, unknown> = {}) => ({
  __typename: 'ScheduleRepeat',
  frequency: 'daily' as const,
  interval: 1,
  hours,
  minutes,
  days: null,
  day_of_month: null,
  ...over,
});

describe('schedules over the API, through @knocklabs/node', () => {
  let t: TestApp;
  let knock: Knock;
  const workflow = uniqueKey('digest');

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    await activeWorkflow(t, workflow, { steps: [feed('feed')] });
    await knock.users.update('sched-ada', { name: 'Ada', timezone: 'America/New_York' });
    await knock.users.update('sched-bob', { name: 'Bob' });
    await knock.objects.set('sched-projects', 'p1', { name: 'Project one' });
  });

  afterAll(async () => {
    await t?.close();
  });

  it("creates one schedule per recipient, with its next occurrence in the recipient's zone, and lists them", async () => {
    const created = await knock.schedules.create({
      workflow,
      recipients: [
        'sched-ada',
        'sched-bob',
        { id: 'sched-cyd', name: 'Cyd', timezone: 'Australia/Lord_Howe' },
        { id: 'p1', collection: 'sched-projects' },
      ],
      repeats: [daily(9, 30)],
      data: { kind: 'digest' },
      tenant: 'sched-acme',
    });
    expect(created).toHaveLength(4);
    const [ada, bob, cyd, project] = created;
    expect(ada).toMatchObject({
      __typename: 'Schedule',
      workflow,
      tenant: 'sched-acme',
      data: { kind: 'digest' },
      last_occurrence_at: null,
      recipient: { __typename: 'User', id: 'sched-ada', name: 'Ada' },
    });
    expect(ada.repeats).toEqual([
      { __typename: 'ScheduleRepeat', frequency: 'daily', interval: 1, hours: 9, minutes: 30, days: null, day_of_month: null },
    ]);
    expect(cyd.recipient).toMatchObject({ id: 'sched-cyd', name: 'Cyd' });
    expect(project.recipient).toMatchObject({ __typename: 'Object', id: 'p1', collection: 'sched-projects' });
    // 09:30 on each recipient's wall clock: New York, UTC (no timezone), Lord Howe.
    const wall = (iso: string, timeZone: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
    expect(wall(ada.next_occurrence_at!, 'America/New_York')).toBe('09:30');
    expect(wall(bob.next_occurrence_at!, 'UTC')).toBe('09:30');
    expect(wall(cyd.next_occurrence_at!, 'Australia/Lord_Howe')).toBe('09:30');
    expect(Date.parse(ada.next_occurrence_at!)).toBeGreaterThan(Date.now() - 1000);

    const listed = [];
    for await (const s of knock.schedules.list({ workflow, page_size: 2 })) listed.push(s.id);
    expect(listed.sort()).toEqual(created.map((s) => s.id).sort());
    const forAda = await knock.schedules.list({ workflow, recipients: ['sched-ada'] });
    expect(forAda.entries.map((s) => s.id)).toEqual([ada.id]);
    const forProject = await knock.schedules.list({ workflow, recipients: [{ id: 'p1', collection: 'sched-projects' }] });
    expect(forProject.entries.map((s) => s.id)).toEqual([project.id]);
    expect((await knock.schedules.list({ workflow, tenant: 'other' })).entries).toEqual([]);
    expect((await knock.users.listSchedules('sched-bob')).entries.map((s) => s.id)).toEqual([bob.id]);
    expect((await knock.objects.listSchedules('sched-projects', 'p1')).entries.map((s) => s.id)).toEqual([project.id]);
  });

  it('updates schedules with the same values, recomputing the next occurrence; deletes them, answering them as they were', async () => {
    const [one, two] = await knock.schedules.create({ workflow, recipients: ['sched-ada', 'sched-bob'], repeats: [daily(6)] });
    const updated = await knock.schedules.update({ schedule_ids: [one.id, two.id], repeats: [daily(18, 15)], data: { v: 2 } });
    expect(updated.map((s) => s.id)).toEqual([one.id, two.id]);
    expect(updated.every((s) => s.data?.v === 2 && s.repeats[0].hours === 18)).toBe(true);
    expect(new Date(updated[1].next_occurrence_at!).getUTCHours()).toBe(18);

    const deleted = await knock.schedules.delete({ schedule_ids: [one.id] });
    expect(deleted.map((s) => s.id)).toEqual([one.id]);
    expect(deleted[0].data).toEqual({ v: 2 });
    const left = (await knock.users.listSchedules('sched-ada')).entries.map((s) => s.id);
    expect(left).not.toContain(one.id);
    // Deleting again answers nothing and writes nothing.
    expect(await knock.schedules.delete({ schedule_ids: [one.id] })).toEqual([]);
  });

  it('previews the next occurrences in UTC and on the wall clock, across a DST change', async () => {
    await knock.users.update('sched-dst', { timezone: 'America/New_York' });
    const [s] = await knock.schedules.create({
      workflow,
      recipients: ['sched-dst'],
      repeats: [daily(2, 30)],
      scheduled_at: '2030-03-08T12:00:00Z',
    });
    const preview = await t.http('GET', `/v1/schedules/${s.id}/preview?count=3`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      __typename: 'SchedulePreview',
      schedule_id: s.id,
      time_zone: 'America/New_York',
      time_zone_source: 'recipient',
      occurrences: [
        // 2030-03-10: clocks go forward at 02:00; 02:30 does not exist and fires at 03:00 EDT.
        { occurrence: '2030-03-09T02:30', at: '2030-03-09T07:30:00Z', local_at: '2030-03-09T02:30:00-05:00', adjusted: null },
        { occurrence: '2030-03-10T02:30', at: '2030-03-10T07:00:00Z', local_at: '2030-03-10T03:00:00-04:00', adjusted: 'gap' },
        { occurrence: '2030-03-11T02:30', at: '2030-03-11T06:30:00Z', local_at: '2030-03-11T02:30:00-04:00', adjusted: null },
      ],
    });
    // A recipient moving to another zone moves its next occurrences.
    await knock.users.update('sched-dst', { timezone: 'Europe/Berlin' });
    const moved = await t.http('GET', `/v1/schedules/${s.id}/preview?count=1`);
    expect(moved.body).toMatchObject({
      time_zone: 'Europe/Berlin',
      occurrences: [{ occurrence: '2030-03-09T02:30', at: '2030-03-09T01:30:00Z' }],
    });
    expect((await t.http('GET', '/v1/schedules/00000000-0000-4000-8000-000000000000/preview')).status).toBe(404);
  });

  it('prints the preview from the CLI', async () => {
    await knock.users.update('sched-cli', { timezone: 'Australia/Lord_Howe' });
    const [s] = await knock.schedules.create({
      workflow,
      recipients: ['sched-cli'],
      repeats: [daily(2, 15)],
      scheduled_at: '2030-10-01T00:00:00Z',
    });
    const withKey = { NOTIFY_URL: t.url, NOTIFY_API_KEY: t.env.secretKey };
    const { code, out, err } = await cliCommand(withKey, 'schedules', 'preview', s.id, '--count', '5');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toContain(`schedule ${s.id}: next 5 in Australia/Lord_Howe (zone from recipient)`);
    // Lord Howe's clocks go from 02:00 to 02:30 on 2030-10-06: 02:15 fires at 02:30.
    expect(out).toMatch(/2030-10-06 02:15 +2030-10-05 15:30Z +2030-10-06 02:30 \(\+11:00\) +local time skipped by DST/);
    expect(out).toMatch(/2030-10-05 02:15 +2030-10-04 15:45Z +2030-10-05 02:15 \(\+10:30\)/);
    expect((await cliCommand(withKey, 'schedules', 'preview', '00000000-0000-4000-8000-000000000000')).code).toBe(1);
  });

  it('fires a schedule: the run is triggered once with trigger_source schedule, and the schedule shows its last occurrence', async () => {
    await knock.users.update('sched-fire', { name: 'Fay' });
    const at = new Date(Date.now() + 1500).toISOString();
    const [s] = await knock.schedules.create({ workflow, recipients: ['sched-fire'], scheduled_at: at, data: { hello: 'world' } });
    expect(Date.parse(s.next_occurrence_at!)).toBe(Date.parse(at));
    const run = await eventually(
      async () => {
        const page = await knock.workflowRecipientRuns.list({ workflow, recipient: 'sched-fire' } as never);
        return page.items[0];
      },
      30_000,
      'the scheduled run',
    );
    expect(run.trigger_source).toMatchObject({ type: 'schedule' });
    const [listed] = (await knock.users.listSchedules('sched-fire')).entries;
    await eventually(
      async () => ((await knock.users.listSchedules('sched-fire')).entries[0]?.last_occurrence_at ? true : undefined),
      10_000,
      'the last occurrence',
    );
    const [after] = (await knock.users.listSchedules('sched-fire')).entries;
    expect(listed.id).toBe(s.id);
    expect(after).toMatchObject({ next_occurrence_at: null });
    expect(Date.parse(after.last_occurrence_at!)).toBe(Date.parse(at));
    const triggered = await t.sql(
      `SELECT count(*)::int AS n FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'schedule_id' = $1`,
      [s.id],
    );
    expect(triggered[0].n).toBe(1);
  });

  it('records an occurrence of an inactive workflow as skipped, with the reason', async () => {
    const paused = uniqueKey('paused');
    await activeWorkflow(t, paused, { steps: [feed('feed')] });
    await t.mgmt().workflows.activate(paused, { environment: 'development', status: false });
    const [s] = await knock.schedules.create({
      workflow: paused,
      recipients: ['sched-bob'],
      scheduled_at: new Date(Date.now() + 500).toISOString(),
    });
    const fired = await eventually(
      async () => (await t.sql(`SELECT data FROM es_events WHERE event_type = 'OccurrenceFired' AND data->>'schedule_id' = $1`, [s.id]))[0],
      30_000,
      'the skipped occurrence',
    );
    expect(fired.data).toMatchObject({ status: 'skipped', reason: 'workflow_inactive', workflow_run_id: null });
  });

  it("deleting a user deletes the user's schedules", async () => {
    await knock.users.update('sched-leaving', { name: 'Leo' });
    const created = await knock.schedules.create({ workflow, recipients: ['sched-leaving'], repeats: [daily(9)] });
    await knock.users.delete('sched-leaving');
    await eventually(
      async () => ((await knock.schedules.list({ workflow, recipients: ['sched-leaving'] })).entries.length === 0 ? true : undefined),
      20_000,
      'the schedules to go',
    );
    const deleted = await t.sql(
      `SELECT data->>'reason' AS reason FROM es_events WHERE event_type = 'ScheduleDeleted' AND data->>'schedule_id' = $1`,
      [created[0].id],
    );
    expect(deleted).toEqual([{ reason: 'recipient_deleted' }]);
  });

  it('creates schedules in bulk as a bulk operation', async () => {
    const operation = await knock.schedules.bulk.create({
      schedules: [
        { workflow, recipient: 'sched-bob', repeats: [daily(7)] },
        { workflow, recipient: { id: 'sched-eve', name: 'Eve' }, repeats: [daily(8)] } as never,
        { workflow: 'no-such-workflow', recipient: 'sched-bob', repeats: [daily(7)] },
      ],
    });
    expect(operation).toMatchObject({ __typename: 'BulkOperation', estimated_total_rows: 3 });
    const done = await eventually(async () => {
      const op = await knock.bulkOperations.get(operation.id);
      return op.status === 'completed' ? op : undefined;
    });
    expect(done).toMatchObject({ success_count: 2, error_count: 1 });
    expect(done.error_items).toEqual([expect.objectContaining({ id: 'sched-bob' })]);
    expect((await knock.users.listSchedules('sched-eve')).entries).toEqual([
      expect.objectContaining({ workflow, recipient: expect.objectContaining({ name: 'Eve' }) }),
    ]);
  });

  describe('bad input: 422 invalid_params naming the field, nothing written', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown workflow', { workflow: 'no-such-workflow', recipients: ['sched-bob'], repeats: [daily(9)] }, 'workflow'],
      ['day_of_month 0', { recipients: ['sched-bob'], repeats: [{ frequency: 'monthly', day_of_month: 0 }] }, 'repeats.0.day_of_month'],
      ['day_of_month 32', { recipients: ['sched-bob'], repeats: [{ frequency: 'monthly', day_of_month: 32 }] }, 'repeats.0.day_of_month'],
      ['hours 24', { recipients: ['sched-bob'], repeats: [daily(24)] }, 'repeats.0.hours'],
      ['no recipients', { recipients: [], repeats: [daily(9)] }, 'recipients'],
      [
        'ending_at before scheduled_at',
        { recipients: ['sched-bob'], repeats: [daily(9)], scheduled_at: '2030-01-02T00:00:00Z', ending_at: '2030-01-01T00:00:00Z' },
        'ending_at',
      ],
      ['over 1,000 recipients', { recipients: Array.from({ length: 1001 }, (_, i) => `u${i}`), repeats: [daily(9)] }, 'recipients'],
      ['no repeats and no scheduled_at', { recipients: ['sched-bob'] }, 'repeats'],
      ['a user never identified', { recipients: ['sched-bob', 'sched-nobody'], repeats: [daily(9)] }, 'recipients.1'],
    ];

    it.each(cases)('%s', async (_name, body, field) => {
      const before = await t.sql<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE event_type = 'ScheduleCreated'`);
      const res = await t.http('POST', '/v1/schedules', { body: { workflow, ...body } });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'invalid_params', status: 422, type: 'invalid_request_error' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      const after = await t.sql<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE event_type = 'ScheduleCreated'`);
      expect(after[0].n).toBe(before[0].n);
    });

    it('refuses updates of unknown schedules and timing that can never fire', async () => {
      const [s] = await knock.schedules.create({ workflow, recipients: ['sched-bob'], repeats: [daily(9)] });
      const unknown = await t.http('PUT', '/v1/schedules', {
        body: { schedule_ids: [s.id, '00000000-0000-4000-8000-000000000000'], data: { x: 1 } },
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'schedule_ids.1' })]);
      const never = await t.http('PUT', '/v1/schedules', { body: { schedule_ids: [s.id], repeats: [] } });
      expect(never.status).toBe(422);
      expect(never.body.errors).toEqual([expect.objectContaining({ field: 'repeats' })]);
      expect((await knock.schedules.list({ workflow, recipients: ['sched-bob'] })).entries.find((x) => x.id === s.id)?.data).toBeNull();
    });
  });
});
