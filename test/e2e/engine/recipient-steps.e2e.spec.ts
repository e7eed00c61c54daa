import Knock from '@knocklabs/node';
import { userStream, workflowRunStream } from '@notify/domain';
import { activeWorkflow, bodyOf, eventually, feed, finishedRuns, messagesOf, STEP_COMPLETIONS, uniqueKey } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/** update_user / update_object / update_tenant and trigger_workflow. */
describe('workflow engine: steps that change recipients and trigger workflows', () => {
  let t: TestApp;
  let knock: Knock;
  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
  });
  afterAll(async () => t?.close());

  describe('update_user, update_object, update_tenant', () => {
    it('update_user (current recipient) changes the user once, and later steps render the new properties', async () => {
      const key = uniqueKey('upd-user');
      await activeWorkflow(t, key, {
        steps: [
          {
            type: 'update_user',
            ref: 'upgrade',
            settings: {
              recipient_mode: 'current',
              update_properties: '{"plan": "{{ data.plan }}", "visits": {{ data.visits }}, "legacy": null}',
            },
          },
          feed('feed', '{{ recipient.name }} is on {{ recipient.plan }} ({{ recipient.visits }})'),
        ],
      });
      await knock.users.update('uu-ada', { name: 'Ada', plan: 'free', legacy: 'x' } as never);
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['uu-ada'], data: { plan: 'pro', visits: 3 } });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.upgrade).toMatchObject({
        status: 'ok',
        output: { target: 'gid://Object/$users/uu-ada', changed: ['plan', 'visits', 'legacy'] },
      });
      expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('Ada is on pro (3)');
      const user = await eventually(
        () => knock.users.get('uu-ada'),
        (u) => (u as { plan?: string }).plan === 'pro',
      );
      expect(user).toMatchObject({ name: 'Ada', plan: 'pro', visits: 3 });
      expect(user).not.toHaveProperty('legacy');
      const history = await t.store.readStream(userStream('development', 'uu-ada'));
      const byRun = history.filter((e) => e.metadata.causation_id === run.runId);
      expect(byRun.map((e) => [e.type, e.data])).toEqual([
        ['UserIdentified', expect.objectContaining({ properties: { plan: 'pro', visits: 3, legacy: null } })],
      ]);

      // Two updates of one user in one run are both applied, in order.
      const twice = uniqueKey('upd-twice');
      await activeWorkflow(t, twice, {
        steps: [
          { type: 'update_user', ref: 'first', settings: { recipient_mode: 'current', update_properties: '{"step": 1, "first": true}' } },
          { type: 'update_user', ref: 'second', settings: { recipient_mode: 'current', update_properties: '{"step": 2}' } },
          feed('feed', 'step {{ recipient.step }}'),
        ],
      });
      const second = await knock.workflows.trigger(twice, { recipients: ['uu-ada'] });
      const [run2] = await finishedRuns(t, second.workflow_run_id);
      expect([run2.steps.first.status, run2.steps.second.status]).toEqual(['ok', 'ok']);
      expect(bodyOf((await messagesOf(t, second.workflow_run_id))[0])).toBe('step 2');
      expect(
        await eventually(
          () => knock.users.get('uu-ada'),
          (u) => (u as { step?: number }).step === 2,
        ),
      ).toMatchObject({ first: true, step: 2 });
    });

    it('update_user by reference, update_object and update_tenant change the referenced recipients', async () => {
      const key = uniqueKey('upd-refs');
      await activeWorkflow(t, key, {
        steps: [
          {
            type: 'update_user',
            ref: 'manager',
            settings: {
              recipient_mode: 'reference',
              recipient_gid: 'gid://Object/$users/{{data.manager}}',
              update_properties: '{"last_report_from": "{{ recipient.id }}"}',
            },
          },
          {
            type: 'update_object',
            ref: 'project',
            settings: { recipient_gid: 'gid://Object/projects/{{data.project}}', update_properties: '{"status": "{{ data.status }}"}' },
          },
          {
            type: 'update_tenant',
            ref: 'tenant',
            settings: { recipient_mode: 'current', update_properties: '{"last_activity": "{{ data.status }}"}' },
          },
          {
            type: 'update_tenant',
            ref: 'other_tenant',
            settings: {
              recipient_mode: 'reference',
              recipient_gid: 'gid://Object/$tenants/globex',
              update_properties: '{"touched": true}',
            },
          },
          feed('feed', '{{ tenant.last_activity }}'),
        ],
      });
      await knock.users.update('ur-boss', { name: 'Boss' });
      const { workflow_run_id } = await knock.workflows.trigger(key, {
        recipients: [{ id: 'ur-ada' }],
        tenant: 'acme',
        data: { manager: 'ur-boss', project: 'p-1', status: 'shipped' },
      });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(Object.values(run.steps).map((s: any) => s.status)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
      expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('shipped');
      expect(
        await eventually(
          () => knock.users.get('ur-boss'),
          (u) => !!(u as { last_report_from?: string }).last_report_from,
        ),
      ).toMatchObject({ name: 'Boss', last_report_from: 'ur-ada' });
      expect(
        await eventually(
          () => knock.objects.get('projects', 'p-1').catch(() => undefined),
          (o) => !!o,
        ),
      ).toMatchObject({ id: 'p-1', collection: 'projects', properties: { status: 'shipped' } });
      expect(
        await eventually(
          () => knock.tenants.get('acme').catch(() => undefined),
          (x) => !!x,
        ),
      ).toMatchObject({ id: 'acme', last_activity: 'shipped' });
      expect(
        await eventually(
          () => knock.tenants.get('globex').catch(() => undefined),
          (x) => !!x,
        ),
      ).toMatchObject({ id: 'globex', touched: true });
    });

    it('records an update that cannot apply as the step error, and skips update_tenant without a tenant', async () => {
      const key = uniqueKey('upd-errors');
      await activeWorkflow(t, key, {
        steps: [
          { type: 'update_user', ref: 'bad_json', settings: { recipient_mode: 'current', update_properties: '{"a": {{ data.missing }}' } },
          { type: 'update_user', ref: 'bad_email', settings: { recipient_mode: 'current', update_properties: '{"email": 42}' } },
          { type: 'update_tenant', ref: 'no_tenant', settings: { recipient_mode: 'current', update_properties: '{"x": 1}' } },
          feed('feed', 'still sent'),
        ],
      });
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'ue-ada' }] });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.bad_json).toMatchObject({
        status: 'error',
        reason: expect.stringContaining('update_properties is not valid JSON after rendering'),
      });
      expect(run.steps.bad_email).toMatchObject({
        status: 'error',
        reason: expect.stringContaining('update_user: invalid properties: email'),
      });
      expect(run.steps.no_tenant).toMatchObject({ status: 'skipped', reason: 'run_has_no_tenant' });
      expect(await messagesOf(t, workflow_run_id)).toHaveLength(1);
    });
  });

  describe('trigger_workflow', () => {
    const child = uniqueKey('child');
    beforeAll(async () => {
      await activeWorkflow(t, child, {
        steps: [feed('feed', 'child of {{ data.from }} #{{ data.n }} for {{ recipient.name }} by {{ actor.id }}')],
      });
    });

    it('triggers the target workflow once per parent run, with rendered recipients, data and actor, and a workflow trigger source', async () => {
      const parent = uniqueKey('parent');
      await activeWorkflow(t, parent, {
        steps: [
          {
            type: 'trigger_workflow',
            ref: 'spawn',
            settings: {
              workflow_key: child,
              recipients: '["{{ recipient.id }}", {"id": "tw-extra-{{ data.n }}", "name": "Extra"}]',
              actor: '{{ recipient.id }}',
              data: '{"from": "{{ workflow.key }}", "n": {{ data.n }}}',
              cancellation_key: 'c-{{ data.n }}',
            },
          },
          feed('feed', 'parent'),
        ],
      });
      await knock.users.update('tw-ada', { name: 'Ada' });
      const { workflow_run_id } = await knock.workflows.trigger(parent, { recipients: ['tw-ada'], data: { n: 7 } });
      const [run] = await finishedRuns(t, workflow_run_id);
      const childRunId = run.steps.spawn.output.workflow_run_id;
      expect(run.steps.spawn).toMatchObject({ status: 'ok', output: { workflow_key: child, recipients: 2 } });

      const [triggered] = await t.store.readStream(workflowRunStream('development', childRunId));
      expect(triggered.data).toMatchObject({
        workflow: { key: child },
        recipients: [
          { type: 'user', id: 'tw-ada' },
          { type: 'user', id: 'tw-extra-7' },
        ],
        actor: { type: 'user', id: 'tw-ada' },
        data: { from: parent, n: 7 },
        cancellation_key: 'c-7',
        trigger_source: { type: 'workflow', workflow_recipient_run_id: run.runId },
      });
      const childRuns = await finishedRuns(t, childRunId, 2);
      expect(childRuns.every((r) => r.events[0].data.trigger_source.workflow_recipient_run_id === run.runId)).toBe(true);
      expect((await messagesOf(t, childRunId)).map(bodyOf)).toEqual([
        `child of ${parent} #7 for Ada by tw-ada`,
        `child of ${parent} #7 for Extra by tw-ada`,
      ]);
      expect(
        (
          await t.sql(
            `SELECT count(*)::int AS c FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'workflow_recipient_run_id' = $1`,
            [run.runId],
          )
        )[0].c,
      ).toBe(1);
    });

    it('defaults to the current recipient, actor, tenant and data', async () => {
      const parent = uniqueKey('parent-defaults');
      await activeWorkflow(t, parent, { steps: [{ type: 'trigger_workflow', ref: 'spawn', settings: { workflow_key: child } }] });
      await knock.users.update('tw-bob', { name: 'Bob' });
      await knock.users.update('tw-boss', { name: 'Boss' });
      const { workflow_run_id } = await knock.workflows.trigger(parent, {
        recipients: ['tw-bob'],
        actor: 'tw-boss',
        tenant: 'acme',
        data: { from: 'api', n: 1 },
      });
      const [run] = await finishedRuns(t, workflow_run_id);
      const childRunId = run.steps.spawn.output.workflow_run_id;
      await finishedRuns(t, childRunId);
      const [message] = await messagesOf(t, childRunId);
      expect(bodyOf(message)).toBe('child of api #1 for Bob by tw-boss');
      expect(message.tenant).toBe('acme');
    });

    it('records a missing or inactive target workflow as the step error, with the reason', async () => {
      const inactive = uniqueKey('inactive');
      await activeWorkflow(t, inactive, { steps: [feed('feed')] });
      await t.mgmt().workflows.activate(inactive, { environment: 'development', status: false });
      const parent = uniqueKey('parent-bad');
      await activeWorkflow(t, parent, {
        steps: [
          { type: 'trigger_workflow', ref: 'missing', settings: { workflow_key: 'no-such-workflow' } },
          { type: 'trigger_workflow', ref: 'inactive', settings: { workflow_key: inactive } },
          { type: 'trigger_workflow', ref: 'bad_data', settings: { workflow_key: child, data: '[1]' } },
          feed('feed', 'after'),
        ],
      });
      const { workflow_run_id } = await knock.workflows.trigger(parent, { recipients: [{ id: 'tw-err' }] });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.missing).toMatchObject({
        status: 'error',
        reason: 'trigger_workflow: workflow_missing: No workflow no-such-workflow exists in this environment',
      });
      expect(run.steps.inactive).toMatchObject({
        status: 'error',
        reason: `trigger_workflow: workflow_inactive: Workflow ${inactive} is not active in this environment`,
      });
      expect(run.steps.bad_data).toMatchObject({
        status: 'error',
        reason: expect.stringContaining('trigger_workflow: invalid settings: data'),
      });
      expect(await messagesOf(t, workflow_run_id)).toHaveLength(1);
      expect(
        (
          await t.sql(
            `SELECT count(*)::int AS c FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'workflow_recipient_run_id' = $1`,
            [run.runId],
          )
        )[0].c,
      ).toBe(0);
    });

    it('stops a workflow that triggers itself after 10 nested runs', async () => {
      const loop = uniqueKey('loop');
      await activeWorkflow(t, loop, { steps: [{ type: 'trigger_workflow', ref: 'again', settings: { workflow_key: loop } }] });
      await knock.workflows.trigger(loop, { recipients: [{ id: 'tw-loop' }] });
      const runs = await eventually(
        () =>
          t.sql<{ reason: string | null; status: string }>(
            `SELECT data->>'status' AS status, data->>'reason' AS reason FROM ${STEP_COMPLETIONS} e WHERE data->>'step_ref' = 'again' AND stream_id IN (
             SELECT stream_id FROM es_events WHERE event_type = 'RunEnqueued' AND data->>'workflow_key' = $1)`,
            [loop],
          ),
        (rows) => rows.some((r) => r.status === 'error'),
        30_000,
      );
      expect(runs.filter((r) => r.status === 'ok')).toHaveLength(10);
      expect(runs.filter((r) => r.status === 'error')).toEqual([
        { status: 'error', reason: 'trigger_workflow: workflows triggered by workflows nest at most 10 deep' },
      ]);
    });
  });
});
