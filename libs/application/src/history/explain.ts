import { expandRecorded, type ExplainedInputsT } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';

/**
 * Why a run sent what it sent, folded from its events only (the trigger, the run, its messages):
 * each step's decision with what the events record of it, and one line per event for people.
 */

type Data = Record<string, unknown>;

export interface ExplainedStep {
  step_ref: string;
  step_type: string;
  status: string;
  reason: string | null;
  output: Data | null;
  attempt: number | null;
  at: string;
  /** What the step decided from (ADR 0219): conditions with their values, branches, preference layers; null before it was recorded. */
  inputs: ExplainedInputsT | null;
}

export interface ExplainedMessage {
  message_id: string;
  channel: unknown;
  step_ref: string | null;
  status: 'sent' | 'delivered' | 'not_sent' | 'undelivered' | 'bounced' | 'pending';
  reason: string | null;
  attempts: ExplainedAttempt[];
}

/** A delivery attempt with what the provider answered (ADR 0239): each request's HTTP status or error, the provider's message id. */
export interface ExplainedAttempt {
  attempt: number;
  outcome: string;
  reason: string | null;
  provider: string;
  provider_message_id: string | null;
  /** One per request the attempt made (from its delivery logs); `erased` when the recipient was. */
  responses: { status: number | null; error: string | null; duration_ms: number | null }[] | 'erased';
}

/** A pause of the run: what set it, with the step's inputs so far (ADR 0239); null inputs before they were recorded. */
export interface ExplainedPause {
  step_ref: string;
  reason: string;
  resume_at: string | null;
  at: string;
  inputs: ExplainedInputsT | null;
}

export interface TimelineEntry {
  at: string;
  global_position: string;
  stream: string;
  type: string;
  text: string;
  /** The decision's inputs, one line each. */
  details: string[];
}

export interface RunExplanation {
  run_id: string | null;
  workflow_run_id: string | null;
  workflow: string | null;
  recipient: unknown;
  /** sent: at least one message was sent; not_sent: the run ended without sending; running: not finished yet. */
  verdict: 'sent' | 'not_sent' | 'cancelled' | 'running';
  /** The decisive reason when nothing was sent: the step that halted or skipped, or the cancellation. */
  reason: string | null;
  trigger: { at: string; source: unknown; actor: unknown; tenant: unknown; data: unknown; correlation_id: string | null } | null;
  /** The run was halted by the workflow's own conditions: each as evaluated. */
  workflow_conditions: ExplainedInputsT | null;
  steps: ExplainedStep[];
  /** Each time the run paused, in order. */
  pauses: ExplainedPause[];
  messages: ExplainedMessage[];
  timeline: TimelineEntry[];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function line(e: RecordedEvent): string {
  const d = e.data as Data;
  switch (e.type) {
    case 'WorkflowTriggered':
      return `triggered ${(d.workflow as Data)?.key} for ${(d.recipients as unknown[])?.length ?? 0} recipient(s) by ${(d.trigger_source as Data)?.type}`;
    case 'RunEnqueued':
      return `run enqueued for ${who(d.recipient)}`;
    case 'StepStarted':
      return `step ${d.step_ref} (${d.step_type}) started`;
    case 'StepCompleted':
      return `step ${d.step_ref} (${d.step_type}) ${d.status}${d.reason ? `: ${d.reason}` : ''}`;
    case 'RunPaused':
      return `paused at ${d.step_ref} for ${d.reason}${d.resume_at ? ` until ${d.resume_at}` : ''}`;
    case 'RunResumed':
      return `resumed at ${d.step_ref} (${d.cause})`;
    case 'RunCancelled':
      return `cancelled: ${d.reason}`;
    case 'RunCompleted':
      return `run ${d.outcome}${d.reason ? `: ${d.reason}` : ''}`;
    case 'MessageCreated':
      return `message ${d.message_id} created on ${(d.channel as Data)?.key ?? 'a channel'}`;
    // A run can have several messages: the lines of a message's events name it.
    case 'MessageDeliveryAttemptCompleted':
      return `delivery attempt ${d.attempt} of message ${d.message_id} via ${d.provider}: ${d.outcome}${d.reason ? ` (${d.reason})` : ''}`;
    case 'MessageNotSent':
      return `message ${d.message_id} not sent: ${d.reason}`;
    case 'MessageUndelivered':
    case 'MessageBounced':
      return `message ${d.message_id} ${e.type.replace('Message', '').toLowerCase()}: ${d.reason}`;
    default:
      return e.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  }
}

/** Folds the events of a trigger, one run and its messages (any order; they are sorted by log position). */
export function explainRun(events: readonly RecordedEvent[]): RunExplanation {
  // A compound entry (ADR 0233) is explained as the events it stands for, in their order.
  const ordered = [...events]
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))
    .flatMap((e) => expandRecorded(e));
  const out: RunExplanation = {
    run_id: null,
    workflow_run_id: null,
    workflow: null,
    recipient: null,
    verdict: 'running',
    reason: null,
    trigger: null,
    workflow_conditions: null,
    steps: [],
    pauses: [],
    messages: [],
    timeline: [],
  };
  const messages = new Map<string, ExplainedMessage>();
  let finished = false;
  for (const e of ordered) {
    const d = e.data as Data;
    out.timeline.push({
      at: e.createdAt.toISOString(),
      global_position: e.globalPosition.toString(),
      stream: e.streamId,
      type: e.type,
      text: line(e),
      details:
        e.type === 'StepCompleted' || e.type === 'RunCompleted' || e.type === 'RunPaused'
          ? describeInputs(d.inputs)
          : e.type === 'MessageDeliveryAttemptCompleted'
            ? describeResponses(d)
            : [],
    });
    switch (e.type) {
      case 'WorkflowTriggered':
        out.trigger = {
          at: str(d.triggered_at) ?? e.createdAt.toISOString(),
          source: d.trigger_source,
          actor: d.actor,
          tenant: d.tenant,
          data: d.data,
          correlation_id: str(e.metadata.correlation_id),
        };
        out.workflow ??= str((d.workflow as Data)?.key);
        break;
      case 'RunEnqueued':
        out.run_id = str(d.run_id);
        out.workflow_run_id = str(d.workflow_run_id);
        out.workflow = str(d.workflow_key);
        out.recipient = d.recipient;
        break;
      case 'StepCompleted':
        out.steps.push({
          step_ref: String(d.step_ref),
          step_type: String(d.step_type),
          status: String(d.status),
          reason: str(d.reason),
          output: (d.output as Data | null) ?? null,
          attempt: typeof d.attempt === 'number' ? d.attempt : null,
          at: String(d.at),
          inputs: isObject(d.inputs) ? (d.inputs as ExplainedInputsT) : null,
        });
        break;
      case 'RunPaused':
        out.pauses.push({
          step_ref: String(d.step_ref),
          reason: String(d.reason),
          resume_at: str(d.resume_at),
          at: String(d.at),
          inputs: isObject(d.inputs) ? (d.inputs as ExplainedInputsT) : null,
        });
        break;
      case 'RunCancelled':
        out.verdict = 'cancelled';
        out.reason = str(d.reason);
        finished = true;
        break;
      case 'RunCompleted':
        finished = true;
        if (d.outcome === 'halted') out.reason = str(d.reason);
        if (isObject(d.inputs)) out.workflow_conditions = d.inputs as ExplainedInputsT;
        break;
      case 'MessageCreated':
        messages.set(String(d.message_id), {
          message_id: String(d.message_id),
          channel: d.channel,
          step_ref: str(d.step_ref),
          status: 'pending',
          reason: null,
          attempts: [],
        });
        break;
      default: {
        const m = messages.get(String(d.message_id));
        if (!m) break;
        if (e.type === 'MessageDeliveryAttemptCompleted')
          m.attempts.push({
            attempt: Number(d.attempt),
            outcome: String(d.outcome),
            reason: str(d.reason),
            provider: String(d.provider),
            provider_message_id: str(d.provider_message_id),
            responses: responsesOf(d.logs),
          });
        const status = (
          {
            MessageSent: 'sent',
            MessageDelivered: 'delivered',
            MessageNotSent: 'not_sent',
            MessageUndelivered: 'undelivered',
            MessageBounced: 'bounced',
          } as const
        )[e.type as 'MessageSent'];
        if (status) {
          m.status = status;
          m.reason = str(d.reason);
        }
      }
    }
  }
  out.messages = [...messages.values()];
  if (out.verdict !== 'cancelled') {
    if (out.messages.some((m) => m.status === 'sent' || m.status === 'delivered')) out.verdict = 'sent';
    else if (finished) out.verdict = 'not_sent';
  }
  if (out.verdict === 'not_sent' && !out.reason) {
    const decisive = [...out.steps].reverse().find((s) => s.status !== 'ok');
    const failedMessage = out.messages.find((m) => m.reason);
    out.reason = decisive
      ? `step ${decisive.step_ref} ${decisive.status}${decisive.reason ? `: ${decisive.reason}` : ''}`
      : failedMessage
        ? `message ${failedMessage.message_id} ${failedMessage.status}: ${failedMessage.reason}`
        : 'the workflow has no step that sends';
  }
  return out;
}

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

const LAYERS: Record<string, string> = {
  environment_default: "the environment's default",
  tenant_default: "the tenant's default set",
  recipient_default: "the user's own set",
  recipient_in_tenant: "the user's set for the tenant",
};

/** A recorded value for people: JSON, `(absent)` for null. */
const shown = (v: unknown): string => (v === null || v === undefined ? '(absent)' : JSON.stringify(v));

function describeCondition(c: Data): string {
  const argument = c.argument === null || c.argument === undefined ? '' : ` ${JSON.stringify(c.argument)}`;
  // An argument naming a variable was compared by its value: say which.
  const resolved = argument && JSON.stringify(c.compared_to) !== JSON.stringify(c.argument) ? ` (= ${shown(c.compared_to)})` : '';
  return `${c.variable} ${c.operator}${argument}${resolved}: ${c.variable} was ${shown(c.value)} -> ${c.result ? 'true' : 'false'}`;
}

function describeGroup(label: string, group: unknown): string[] {
  if (!isObject(group)) return [];
  const conditions = Array.isArray(group.conditions) ? (group.conditions as Data[]) : [];
  const lines = [`${label} (${group.mode} of ${conditions.length}) ${group.holds ? 'held' : 'did not hold'}`];
  for (const c of conditions) {
    if (Array.isArray(c.all)) {
      lines.push(`  all of ${c.all.length} ${c.holds ? 'held' : 'did not hold'}`);
      for (const inner of c.all as Data[]) lines.push(`    ${describeCondition(inner)}`);
    } else lines.push(`  ${describeCondition(c)}`);
  }
  return lines;
}

function describeCheck(c: Data): string {
  const layer = typeof c.layer === 'string' ? ` from ${LAYERS[c.layer] ?? c.layer} (${c.layer})` : '';
  const result = c.result === 'allowed' ? 'allows' : c.result === 'opted_out' ? 'opts out' : 'conditions not met';
  return `${c.setting} = ${JSON.stringify(c.value)}${layer}: ${result}`;
}

/** A decision's recorded inputs (StepCompleted, RunCompleted, RunPaused), one line each; none for events recorded before them. */
export function describeInputs(inputs: unknown): string[] {
  if (!isObject(inputs)) return [];
  if (inputs.$erased === true) return ['inputs erased (the recipient was erased)'];
  const lines = describeGroup('conditions', inputs.conditions);
  if (Array.isArray(inputs.branches))
    for (const b of inputs.branches as Data[]) {
      const name = b.name === null || b.name === undefined ? 'branch' : `branch ${JSON.stringify(b.name)}`;
      lines.push(...(isObject(b.conditions) ? describeGroup(`${name}: conditions`, b.conditions) : [`${name}: the default, taken`]));
    }
  if (isObject(inputs.throttle)) lines.push(describeThrottle(inputs.throttle));
  if (isObject(inputs.batch)) lines.push(describeBatch(inputs.batch));
  if (isObject(inputs.channel_data)) lines.push(describeChannelData(inputs.channel_data));
  if (isObject(inputs.pause)) lines.push(describePause(inputs.pause));
  if (isObject(inputs.suppression)) lines.push(describeSuppression(inputs.suppression));
  const p = inputs.preferences;
  if (isObject(p)) {
    const checked = Array.isArray(p.checked) ? (p.checked as Data[]) : [];
    const decidedBy = isObject(p.decided_by) ? p.decided_by : null;
    if (decidedBy) lines.push(`preferences: blocked by ${describeCheck(decidedBy)}`);
    else if (p.override_preferences === true) lines.push('preferences: overridden by the workflow (override_preferences)');
    else lines.push(checked.length ? 'preferences: allowed' : 'preferences: allowed (no setting applies)');
    if (p.commercial === true) lines.push('  the workflow is commercial: commercial_subscribed is checked first');
    for (const c of checked) if (c !== decidedBy) lines.push(`  ${describeCheck(c)}`);
    for (const c of checked)
      for (const cond of Array.isArray(c.conditions) ? (c.conditions as Data[]) : [])
        lines.push(`  ${c.setting}: ${describeCondition(cond)}`);
  }
  return lines;
}

/** What the provider answered each request of an attempt, from its delivery logs (sealed: erased with the recipient). */
function responsesOf(logs: unknown): ExplainedAttempt['responses'] {
  if (isObject(logs) && logs.$erased === true) return 'erased';
  if (!Array.isArray(logs)) return [];
  return logs.filter(isObject).map((log) => {
    const response = isObject(log.response) ? log.response : null;
    return {
      status: typeof response?.status === 'number' ? response.status : null,
      error: str(log.error),
      duration_ms: typeof log.duration_ms === 'number' ? log.duration_ms : null,
    };
  });
}

function describeResponses(d: Data): string[] {
  const responses = responsesOf(d.logs);
  const lines =
    responses === 'erased'
      ? ['provider responses erased (the recipient was erased)']
      : responses.map(
          (r) =>
            `provider answered ${r.status !== null ? `HTTP ${r.status}` : 'nothing'}${r.error ? ` (${r.error})` : ''}${r.duration_ms !== null ? ` in ${r.duration_ms} ms` : ''}`,
        );
  if (typeof d.provider_message_id === 'string') lines.push(`provider message id ${d.provider_message_id}`);
  return lines;
}

function describeThrottle(t: Data): string {
  const verdict = t.result === 'passed' ? 'passed' : 'limited';
  return `throttle ${JSON.stringify(t.key)}: ${t.passes_in_window} of ${t.limit} passed since ${t.window_start} (window ${t.window_ms} ms) -> ${verdict}${t.repeated ? ' (decided before)' : ''}`;
}

function describeBatch(b: Data): string {
  const window = b.closes_at
    ? `, window ${b.opened_at ?? '?'} to ${b.closes_at}${b.extend_until ? ` (extends to ${b.extend_until} at most)` : ''}`
    : '';
  const limit = b.max_items !== null && b.max_items !== undefined ? ` of at most ${b.max_items}` : '';
  const closed = b.closed ? `; closed by ${b.closed === 'max_items' ? 'its items limit' : 'its window'}` : '';
  const id = b.batch_id ? ` ${b.batch_id}` : '';
  return `batch${id} (${b.mode}, ${b.window_type}${b.key !== null && b.key !== undefined ? `, key ${JSON.stringify(b.key)}` : ''}): ${b.role ?? 'no role'}, ${b.items} item(s)${limit}${window}${closed}`;
}

function describeChannelData(c: Data): string {
  const refs = Array.isArray(c.refs) && c.refs.length ? `: ${(c.refs as string[]).join(', ')}` : '';
  if (c.kind === 'none') return `channel ${c.channel_id}: needs no address`;
  if (c.present !== true) return `channel ${c.channel_id}: ${c.kind} missing`;
  const from = c.source === 'override' ? "the step's override" : c.source === 'recipient' ? "the recipient's properties" : 'channel data';
  return `channel ${c.channel_id}: ${c.count} ${c.kind} from ${from}${refs}`;
}

function describeSuppression(s: Data): string {
  const why = s.reason === 'hard_bounce' ? 'a hard bounce' : s.reason === 'complaint' ? 'a complaint' : String(s.reason);
  const by = typeof s.message_id === 'string' ? ` of message ${s.message_id}${typeof s.source === 'string' ? ` (${s.source})` : ''}` : '';
  const detail = typeof s.detail === 'string' && s.detail ? `: ${s.detail}` : '';
  return `suppressed: the address is on the suppression list since ${s.suppressed_at}, for ${why}${by}${detail}`;
}

function describePause(p: Data): string {
  const until = p.resume_at ? `until ${p.resume_at}` : 'until something resumes it';
  if (isObject(p.delay)) {
    const d = p.delay;
    const parts = [
      d.delay_for !== null && d.delay_for !== undefined ? `delay_for ${JSON.stringify(d.delay_for)}` : null,
      d.delay_until_field_path ? `${d.delay_until_field_path} was ${shown(d.field_value)}` : null,
    ].filter(Boolean);
    return `paused ${until} by the delay: ${parts.join(', ')}`;
  }
  if (isObject(p.send_window)) return `paused ${until}: outside the send windows in ${p.send_window.timezone}`;
  if (p.reason === 'batch') return `paused ${until}: the batch window's timer`;
  return `paused ${until} (${p.reason})`;
}

/** `user u1`, `object projects/p1`. */
function who(recipient: unknown): string {
  const r = recipient as { type?: string; id?: string; collection?: string } | null;
  if (!r?.id) return '?';
  return r.type === 'object' ? `object ${r.collection}/${r.id}` : `user ${r.id}`;
}

/** The timeline as text, one event a line, and the verdict first. */
export function formatExplanation(x: RunExplanation): string {
  const head = `${x.workflow ?? '?'} run ${x.run_id ?? '?'} for ${who(x.recipient)}: ${x.verdict.replace('_', ' ')}${x.reason ? ` (${x.reason})` : ''}`;
  const pad = ' '.repeat(34);
  return [
    head,
    ...x.timeline.flatMap((t) => [`${t.at}  #${t.global_position.padEnd(6)} ${t.text}`, ...(t.details ?? []).map((d) => `${pad}${d}`)]),
  ].join('\n');
}
