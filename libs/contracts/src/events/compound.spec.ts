import { eventParts, expandRecorded, partEventId } from './compound';

const runId = '00000000-0000-4000-8000-000000000001';
const messageId = '00000000-0000-4000-8000-000000000002';
const entryId = '00000000-0000-4000-8000-0000000000aa';

describe('compound events (ADR 0233)', () => {
  it('reads a message created delivered as MessageCreated then MessageDelivered', () => {
    const data = { message_id: messageId, created_at: 't0', delivered_at: 't1' };
    expect(eventParts('MessageCreated', data)).toEqual([
      { type: 'MessageCreated', data: { message_id: messageId, created_at: 't0' }, part: 0, primary: true },
      { type: 'MessageDelivered', data: { message_id: messageId, at: 't1' }, part: 1, primary: false },
    ]);
  });

  it("reads a RunCompleted carrying its step as that StepCompleted then the RunCompleted, each with the run's id", () => {
    const step = { step_ref: 's', step_type: 'channel', status: 'ok', reason: null, output: null, attempt: 1, next_path: null, at: 't' };
    const data = { run_id: runId, outcome: 'ended', reason: null, at: 't', step };
    expect(eventParts('RunCompleted', data)).toEqual([
      { type: 'StepCompleted', data: { run_id: runId, ...step }, part: 0, primary: false },
      { type: 'RunCompleted', data: { run_id: runId, outcome: 'ended', reason: null, at: 't' }, part: 1, primary: true },
    ]);
  });

  it('leaves every other entry, and the shapes older code wrote, as they are', () => {
    const created = { message_id: messageId, created_at: 't0' };
    expect(eventParts('MessageCreated', created)).toEqual([{ type: 'MessageCreated', data: created, part: 0, primary: true }]);
    const completed = { run_id: runId, outcome: 'ended', reason: null, at: 't' };
    expect(eventParts('RunCompleted', completed)).toEqual([{ type: 'RunCompleted', data: completed, part: 0, primary: true }]);
    const entry = { id: entryId, type: 'MessageSeen', data: { message_id: messageId, at: 't' }, revision: 3 };
    expect(expandRecorded(entry)).toEqual([{ ...entry, part: 0 }]);
  });

  it("gives the part of the entry's own type the entry's id and the other a derived one, the same on every read", () => {
    const entry = { id: entryId, type: 'MessageCreated', data: { message_id: messageId, delivered_at: 't1' }, revision: 0 };
    const [created, delivered] = expandRecorded(entry);
    expect(created).toEqual({ id: entryId, type: 'MessageCreated', data: { message_id: messageId }, revision: 0, part: 0 });
    expect(delivered).toEqual({
      id: partEventId(entryId, 1),
      type: 'MessageDelivered',
      data: { message_id: messageId, at: 't1' },
      revision: 0,
      part: 1,
    });
    expect(expandRecorded(entry)[1].id).toBe(delivered.id);
    expect(delivered.id).not.toBe(entryId);
  });
});
