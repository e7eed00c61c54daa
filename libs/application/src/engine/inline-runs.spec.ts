import { executableWithTrigger, InlineRuns, recipientFreshnessSql } from './inline-runs';

describe('runs executed with their trigger (ADR 0258)', () => {
  describe('executableWithTrigger', () => {
    const feed = { type: 'channel', ref: 'feed' };
    it('takes workflows whose steps only read and decide, branches included', () => {
      expect(executableWithTrigger([feed])).toBe(true);
      expect(executableWithTrigger([])).toBe(true);
      expect(
        executableWithTrigger([
          { type: 'delay', ref: 'wait' },
          { type: 'branch', ref: 'b', branches: [{ steps: [feed, { type: 'update_data', ref: 'u' }] }, { steps: [] }] },
          { type: 'random_cohort', ref: 'r', cohort_branches: [{ steps: [feed] }] },
        ]),
      ).toBe(true);
    });

    it('leaves to the worker any workflow with a step that calls out, waits or appends to an existing stream, however deep', () => {
      for (const type of [
        'http_fetch',
        'batch',
        'throttle',
        'wait_for_event',
        'trigger_workflow',
        'update_user',
        'update_object',
        'update_tenant',
        'unknown',
      ])
        expect(executableWithTrigger([feed, { type, ref: 'x' }])).toBe(false);
      expect(
        executableWithTrigger([{ type: 'branch', ref: 'b', branches: [{ steps: [feed] }, { steps: [{ type: 'batch', ref: 'x' }] }] }]),
      ).toBe(false);
      expect(
        executableWithTrigger([{ type: 'random_cohort', ref: 'r', cohort_branches: [{ steps: [{ type: 'http_fetch', ref: 'f' }] }] }]),
      ).toBe(false);
    });
  });

  describe('recipientFreshnessSql', () => {
    const head = (type: string) => `head(${type})`;
    it('compares each projection with the newest event of the types it applies only', () => {
      const sql = recipientFreshnessSql(
        [
          { name: 'users', types: ['UserIdentified'] },
          { name: 'schedules', types: ['UserIdentified', 'ObjectSet'] },
          { name: 'messages', types: [] },
        ],
        head,
      )!;
      expect(sql).toContain(`('users', head(UserIdentified))`);
      expect(sql).toContain(`('schedules', greatest(head(UserIdentified), head(ObjectSet)))`);
      expect(sql).not.toContain('messages');
    });

    it('is always true without projections of recipient events, and unavailable where the log cannot answer for a type', () => {
      expect(recipientFreshnessSql([{ name: 'messages', types: [] }], head)).toBe('true');
      expect(recipientFreshnessSql([{ name: 'users', types: ['UserIdentified'] }], () => undefined)).toBeUndefined();
    });
  });

  describe('InlineRuns.plan', () => {
    const trigger = { workflow: { steps: [{ type: 'channel', ref: 'feed' }] }, recipients: [{ type: 'user', id: 'u1' }], actor: null };
    /** Bare runs, each a RunEnqueued of user u<i + 1>. */
    const runs = (n: number, recipient = (i: number) => ({ type: 'user', id: `u${i + 1}` })) =>
      Array.from({ length: n }, (_, i) => ({
        streamId: `run-${i}`,
        expectedRevision: 'any' as const,
        events: [
          {
            id: `e${i}`,
            type: 'RunEnqueued',
            data: { recipient: recipient(i) },
            metadata: { environment: 'development', schema_version: 1 },
          },
        ],
      }));
    const planned = [{ streamId: 'run-0', expectedRevision: 'any' as const, events: [] }];

    it('leaves a trigger of more than 8 recipients to the worker without loading anything', async () => {
      const forBatch = jest.fn();
      const inline = new InlineRuns({} as never, { forBatch } as never, 'true');
      expect(await inline.plan('development', trigger as never, runs(9))).toBeUndefined();
      expect(forBatch).not.toHaveBeenCalled();
    });

    it('plans on current read models when its trigger is the only one in flight; others meanwhile, and any on read models behind, go to the worker', async () => {
      const prefetch = jest.fn(async () => true);
      const planUnrecorded = jest.fn(async () => planned);
      const inline = new InlineRuns({ planUnrecorded } as never, { forBatch: () => ({ prefetch }) } as never, 'fresh-sql');
      const first = inline.begin();
      expect(await inline.plan('development', trigger as never, runs(1))).toBe(planned);
      expect(prefetch).toHaveBeenCalledWith('development', [{ type: 'user', id: 'u1' }], { fresh: 'fresh-sql' });
      // A second trigger in flight: neither plans.
      const second = inline.begin();
      expect(await inline.plan('development', trigger as never, runs(1))).toBeUndefined();
      second();
      second(); // released once, however often called
      // Alone again, on read models behind the log: nothing planned.
      prefetch.mockResolvedValueOnce(false);
      expect(await inline.plan('development', trigger as never, runs(1))).toBeUndefined();
      first();
      expect(prefetch).toHaveBeenCalledTimes(2);
      expect(planUnrecorded).toHaveBeenCalledTimes(1);
      expect(inline.stats).toEqual({ planned: 1, notEligible: 0, behind: 1, declined: 0, failed: 0, busy: 1 });
    });

    it("plans a bulk sender's page whatever its size and whatever else is in flight, still only on current read models (ADR 0262)", async () => {
      const prefetch = jest.fn(async () => true);
      const planUnrecorded = jest.fn(async () => planned);
      const inline = new InlineRuns({ planUnrecorded } as never, { forBatch: () => ({ prefetch }) } as never, 'fresh-sql');
      const leaveA = inline.begin();
      const leaveB = inline.begin();
      const page = { ...trigger, recipients: Array.from({ length: 1000 }, (_, i) => ({ type: 'user', id: `u${i}` })) };
      expect(await inline.plan('development', page as never, runs(1000), { page: true })).toBe(planned);
      expect(planUnrecorded).toHaveBeenCalledWith('development', page, runs(1000), expect.anything(), expect.any(Date));
      prefetch.mockResolvedValueOnce(false);
      expect(await inline.plan('development', page as never, runs(1000), { page: true })).toBeUndefined();
      // A page of a workflow with a step that calls out goes to the worker.
      const fetching = { ...page, workflow: { steps: [{ type: 'http_fetch', ref: 'f' }] } };
      expect(await inline.plan('development', fetching as never, runs(1000), { page: true })).toBeUndefined();
      leaveA();
      leaveB();
      expect(inline.stats).toEqual({ planned: 1, notEligible: 1, behind: 1, declined: 0, failed: 0, busy: 0 });
    });

    it("loads the runs' recipients, not the trigger's: an object's subscribers when a fan-out plans a chunk (ADR 0287)", async () => {
      const prefetch = jest.fn(async () => true);
      const planUnrecorded = jest.fn(async () => planned);
      const inline = new InlineRuns({ planUnrecorded } as never, { forBatch: () => ({ prefetch }) } as never, 'fresh-sql');
      const toObject = {
        ...trigger,
        recipients: [{ type: 'object', collection: 'teams', id: 'everyone' }],
        actor: { type: 'user', id: 'boss' },
      };
      const subscribers = runs(3, (i) => ({ type: 'user', id: `s${i}` }));
      expect(await inline.plan('development', toObject as never, subscribers, { page: true })).toBe(planned);
      expect(prefetch).toHaveBeenCalledWith(
        'development',
        [
          { type: 'user', id: 's0' },
          { type: 'user', id: 's1' },
          { type: 'user', id: 's2' },
          { type: 'user', id: 'boss' },
        ],
        { fresh: 'fresh-sql' },
      );
    });

    it('leaves the runs to the worker when planning fails, so the trigger is still recorded', async () => {
      const prefetch = jest.fn(async () => {
        throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' });
      });
      const inline = new InlineRuns({ planUnrecorded: jest.fn() } as never, { forBatch: () => ({ prefetch }) } as never, 'fresh-sql');
      const leave = inline.begin();
      expect(await inline.plan('development', trigger as never, runs(1))).toBeUndefined();
      leave();
      expect(inline.stats.failed).toBe(1);
    });
  });
});
