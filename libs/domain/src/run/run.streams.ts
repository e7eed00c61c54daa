/** Stream names of the workflow engine's aggregates; all scoped by environment. */
export const workflowRunStream = (environment: string, workflowRunId: string) => `workflow_run-${environment}-${workflowRunId}`;
export const runStream = (environment: string, runId: string) => `run-${environment}-${runId}`;
export const runStreamPrefix = (environment: string) => `run-${environment}-`;
export const cancellationStream = (environment: string, workflowKey: string, cancellationKey: string) =>
  `cancellation-${environment}-${workflowKey}-${cancellationKey}`;
export const frequencyStream = (environment: string, workflowKey: string, recipientKey: string, tenant: string | null) =>
  `frequency-${environment}-${workflowKey}-${recipientKey}${tenant === null ? '' : `-${tenant}`}`;
export const batchStream = (environment: string, workflowKey: string, stepRef: string, recipientKey: string, batchKey: string) =>
  `batch-${environment}-${workflowKey}-${stepRef}-${recipientKey}-${batchKey}`;
export const throttleStream = (environment: string, workflowKey: string, stepRef: string, recipientKey: string, throttleKey: string) =>
  `throttle-${environment}-${workflowKey}-${stepRef}-${recipientKey}-${throttleKey}`;

/** A recipient reference as one string: a user id, or `collection:id` for an object. */
export function recipientKey(ref: { type: 'user'; id: string } | { type: 'object'; collection: string; id: string }): string {
  return ref.type === 'user' ? ref.id : `${ref.collection}:${ref.id}`;
}
