import { nameUuid } from '../name-uuid';

const ENGINE_NAMESPACE = '7c0a3f52-1d6e-4b8a-9f3c-5e2d1a0b9c8d';

/**
 * Every id the engine creates is derived from what it is about, so re-executing a step after a
 * crash produces the same ids and the append is a no-op instead of a duplicate.
 */
export const engineId = (...parts: (string | number)[]) => nameUuid(parts.join(':'), ENGINE_NAMESPACE);

export const runIdFor = (workflowRunId: string, recipientKey: string) => engineId('run', workflowRunId, recipientKey);
export const messageIdFor = (runId: string, stepRef: string, path: readonly number[]) =>
  engineId('message', runId, stepRef, path.join('.'));
export const stepEventId = (runId: string, revision: number, index: number) => engineId('run-event', runId, revision, index);
