import { runDecider, RunState, StepNode, WorkflowTriggeredData } from '@notify/domain';
import { TemplateEngine } from '@notify/templating';
import type { EngineDeps, StepContext } from '../step-handler';
import type { RunVariables } from '../variables';

/** A step context without a database, for unit tests of step handlers. */
export function stepContext(
  step: StepNode,
  options: {
    deps?: Partial<EngineDeps>;
    data?: Record<string, unknown>;
    attempt?: number;
    resumed?: boolean;
    state?: Partial<RunState>;
    now?: Date;
  } = {},
): StepContext {
  const runId = '00000000-0000-4000-8000-0000000000aa';
  const data = options.data ?? {};
  const state: RunState = {
    ...runDecider.initialState(),
    status: 'processing',
    data,
    path: [0],
    run: {
      run_id: runId,
      workflow_run_id: '00000000-0000-4000-8000-0000000000bb',
      workflow_key: 'wf',
      recipient: { type: 'user', id: 'ada' },
      actor: null,
      tenant: null,
      data,
      cancellation_key: null,
      trigger_source: { type: 'api' },
      trigger_position: '1',
      subscribed_to: null,
      enqueued_at: '2026-03-02T10:00:00.000Z',
    },
    ...options.state,
  };
  const trigger = {
    workflow_run_id: state.run!.workflow_run_id,
    workflow: {
      key: 'wf',
      version: 'v1',
      categories: [],
      steps: [step],
      conditions: null,
      settings: null,
      trigger_frequency: 'every_trigger',
    },
    actor: null,
    recipients: [state.run!.recipient],
    tenant: null,
    data,
    cancellation_key: null,
    settings: {},
    trigger_source: { type: 'api' },
    triggered_at: '2026-03-02T10:00:00.000Z',
  } as WorkflowTriggeredData;
  const variables: RunVariables = {
    recipient: { id: 'ada', name: 'Ada' },
    actor: null,
    tenant: null,
    data,
    vars: { api: 'https://api.example.com' },
    workflow: { key: 'wf', categories: [], version: 'v1' },
  };
  const deps: EngineDeps = {
    store: undefined as never,
    lookups: { templateResources: () => ({}) } as never,
    templates: new TemplateEngine(),
    http: { request: () => Promise.reject(new Error('no outbound HTTP in this test')) },
    settings: { fetchMaxAttempts: 3, fetchRetryBaseMs: 1000, fetchRetryMaxMs: 60_000, fetchTimeoutMs: 2000 },
    ...options.deps,
  };
  return {
    environment: 'test',
    now: options.now ?? new Date('2026-03-02T10:00:00.000Z'),
    state,
    trigger,
    step,
    path: [0],
    resumed: options.resumed ?? false,
    attempt: options.attempt ?? 0,
    deps,
    recipient: async () => ({ ref: state.run!.recipient, properties: variables.recipient! }),
    variables: async () => ({ ...variables, data: state.data }),
  };
}
