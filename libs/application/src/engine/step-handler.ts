import type { LinkTracker } from '../messages/link-tracking';
import type { PreferenceLinks } from '../messages/preference-links';
import type { RunPaused } from '@notify/contracts';
import type { EventOf } from '@notify/contracts';
import type { DecisionInputsData, RunState, StepNode, StepPath, WorkflowTriggeredData } from '@notify/domain';
import type { EventStore, StreamAppend } from '@notify/eventstore';
import type { OutboundHttp } from '@notify/outbound';
import type { TemplateRenderer } from '@notify/templating';
import type { EngineLookups, RecipientView } from './lookups';
import type { RunVariables } from './variables';

export type PauseReason = EventOf<typeof RunPaused>['data']['reason'];

export interface EngineDeps {
  store: EventStore;
  lookups: EngineLookups;
  /** Renders untrusted templates; at run time an IsolatedRenderer (worker threads, hard time limit). */
  templates: TemplateRenderer;
  /** Outbound HTTP for fetch steps, with the deployment's address policy; replaceable in tests. */
  http: Pick<OutboundHttp, 'request'>;
  /**
   * Resolves once the recipient read models (users, objects, tenants, preferences, channel data)
   * include everything up to `position`: a run reads recipients identified inline with its
   * trigger, or updated by its own steps, only after they are visible.
   */
  readModelsAt?: (position: string) => Promise<void>;
  /** Set when link tracking is on: channel steps rewrite the links of the content they render. */
  links?: LinkTracker | null;
  /**
   * Set when PUBLIC_URL is: templates get `preferences_url`, and emails of a workflow with categories
   * the one-click `List-Unsubscribe` headers (ADR 0190).
   */
  preferenceLinks?: PreferenceLinks | null;
  settings: { fetchMaxAttempts: number; fetchTimeoutMs?: number; fetchRetryBaseMs?: number; fetchRetryMaxMs?: number };
  /** The time runs are decided by (send windows, delays, batch windows); the system clock when unset. */
  clock?: () => Date;
}

/** What a step sees: the run so far, its workflow version, lazily loaded variables. */
export interface StepContext {
  environment: string;
  now: Date;
  state: RunState;
  trigger: WorkflowTriggeredData;
  step: StepNode;
  path: StepPath;
  /** The run was paused on this step and continues now (timer fired, batch closed, ...). */
  resumed: boolean;
  /** How many times this step ran before (fetch retries). */
  attempt: number;
  deps: EngineDeps;
  recipient(): Promise<RecipientView | undefined>;
  variables(): Promise<RunVariables>;
}

interface Common {
  status?: 'ok' | 'skipped' | 'error';
  reason?: string | null;
  output?: Record<string, unknown> | null;
  /** Appends to other streams that must happen together with this step (messages, batches, ...). */
  appends?: StreamAppend[];
  /** What the step decided from: conditions with their values, preference layers (ADR 0219). The engine adds whose they are. */
  inputs?: Omit<DecisionInputsData, 'user_id'>;
  /** Recipient, actor or tenant properties this step changed (update_user, ...): later steps of this execution see them. */
  variables?: Partial<Pick<RunVariables, 'recipient' | 'actor' | 'tenant'>>;
}

/**
 * What a step decided. `continue` moves to the next step (or into `branch`), `pause` stops the
 * run until a timer fires or something resumes it, `halt` ends the run.
 */
export type StepOutcome =
  | (Common & { flow: 'continue'; branch?: number; data?: Record<string, unknown> })
  | (Common & { flow: 'pause'; reason: PauseReason; resumeAt: Date | null; waitingFor?: Record<string, unknown> | null })
  | (Common & { flow: 'halt'; reason: string });

export interface StepHandler {
  readonly type: string;
  execute(ctx: StepContext): Promise<StepOutcome>;
}
