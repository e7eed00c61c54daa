import {
  cohortBranch,
  ConditionGroup,
  delayUntil,
  DelaySettings,
  explainConditionGroup,
  readPath,
  recipientKey,
  recordedValue,
} from '@notify/domain';
import { conditionContext } from '../condition-context';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';
import { renderJsonSetting } from './render-json';

/** Waits for a duration, or until a time from the data; `skip_delay` goes straight on. */
export class DelayStep implements StepHandler {
  readonly type = 'delay';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    if (ctx.resumed) return { flow: 'continue', status: 'ok', output: { delayed: true } };
    const settings = (ctx.step.settings ?? {}) as DelaySettings;
    const until = delayUntil(settings, await ctx.variables(), ctx.now, ctx.trigger.settings.skip_delay === true);
    if (!until) return { flow: 'continue', status: 'ok', output: { delayed: false } };
    // What set the timer (ADR 0239): the settings and, for a field path, what the field held.
    const field = settings.delay_until_field_path ? readPath(await ctx.variables(), settings.delay_until_field_path) : undefined;
    const delay = {
      delay_for: settings.delay_for ?? null,
      delay_until_field_path: settings.delay_until_field_path ?? null,
      ...(settings.delay_until_field_path ? { field_value: recordedValue(field) } : {}),
    };
    return {
      flow: 'pause',
      reason: 'delay',
      resumeAt: until,
      inputs: { pause: { reason: 'delay', resume_at: until.toISOString(), delay } },
    };
  }
}

interface BranchDef {
  branches: { name?: string; conditions?: ConditionGroup | null }[];
}

/** Takes the first branch whose conditions hold; the last branch is the default. */
export class BranchStep implements StepHandler {
  readonly type = 'branch';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const { branches } = ctx.step as unknown as BranchDef;
    const context = await conditionContext(
      ctx.deps.lookups,
      ctx.environment,
      ctx.state.run!,
      branches.map((b) => b.conditions),
      await ctx.variables(),
      ctx.now.toISOString(),
    );
    // Each branch's conditions up to the one taken, as evaluated (ADR 0219); the last branch is the default and has none checked.
    const evaluated: { name: string | null; conditions: ReturnType<typeof explainConditionGroup> | null }[] = [];
    let index = branches.length - 1;
    for (let i = 0; i < branches.length - 1; i++) {
      const trace = explainConditionGroup(branches[i].conditions ?? null, context);
      evaluated.push({ name: branches[i].name ?? null, conditions: trace });
      if (trace.holds) {
        index = i;
        break;
      }
    }
    if (index === branches.length - 1 && branches.length > 0) evaluated.push({ name: branches[index].name ?? null, conditions: null });
    return {
      flow: 'continue',
      status: 'ok',
      branch: index,
      output: { branch: branches[index]?.name ?? index },
      inputs: { branches: evaluated },
    };
  }
}

interface CohortDef {
  cohort_key?: string;
  cohort_branches: { name?: string; percentage: string | number }[];
}

/** Splits recipients into cohorts by percentage; the same key always lands in the same cohort. */
export class RandomCohortStep implements StepHandler {
  readonly type = 'random_cohort';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const step = ctx.step as unknown as CohortDef;
    const vars = await ctx.variables();
    const keyValue = step.cohort_key ? readPath(vars, step.cohort_key) : undefined;
    const key = keyValue === undefined || keyValue === null ? recipientKey(ctx.state.run!.recipient) : String(keyValue);
    const index = cohortBranch(
      step.cohort_branches.map((b) => b.percentage),
      key,
      `${ctx.trigger.workflow.key}:${ctx.step.ref}`,
    );
    return { flow: 'continue', status: 'ok', branch: index, output: { cohort: step.cohort_branches[index]?.name ?? index } };
  }
}

/** Merges rendered JSON into the run's data. */
export class UpdateDataStep implements StepHandler {
  readonly type = 'update_data';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const source = (ctx.step.settings as { data?: string } | undefined)?.data ?? '{}';
    const rendered = await renderJsonSetting(ctx, source, 'data');
    if (!rendered.ok) return { flow: 'continue', status: 'error', reason: rendered.reason };
    if (rendered.value === null || typeof rendered.value !== 'object' || Array.isArray(rendered.value)) {
      return { flow: 'continue', status: 'error', reason: 'update_data: data must render to a JSON object' };
    }
    return {
      flow: 'continue',
      status: 'ok',
      data: rendered.value as Record<string, unknown>,
      output: { keys: Object.keys(rendered.value as object) },
    };
  }
}
