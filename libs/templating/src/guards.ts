import { performance } from 'node:perf_hooks';
import { ForTag, TablerowTag, type Context, type Emitter, type FilterImplOptions, type Liquid, type Template } from 'liquidjs';
import { TemplateFailure } from './errors';
import { maybeStateOf } from './render-state';
import { toOutputString } from './safe-html';

/**
 * liquidjs bounds parse size, render time and allocations; it has no bound on loop iterations
 * or output size, and checks its time limit only between nodes, so one filter over a huge
 * array (`(1..5000000) | where: "x", 1`) runs for seconds unchecked. These guards add:
 * - loop iterations and output size, by wrapping the one method every block render goes
 *   through (`renderer.renderTemplates`): a loop body counts one iteration per call, and every
 *   buffer it writes to (the output, each `capture`) refuses to grow past the output limit;
 * - filter work, by wrapping every filter: an array input or argument longer than
 *   `maxCollectionSize` is refused before the filter runs, and the time limit is checked
 *   before each filter, so a chain of filters in one tag stops too.
 */
const LOOP_BODIES = new WeakSet<Template[]>();

class CountedForTag extends ForTag {
  constructor(...args: ConstructorParameters<typeof ForTag>) {
    super(...args);
    LOOP_BODIES.add((this as unknown as { templates: Template[] }).templates);
  }
}

class CountedTablerowTag extends TablerowTag {
  constructor(...args: ConstructorParameters<typeof TablerowTag>) {
    super(...args);
    LOOP_BODIES.add((this as unknown as { templates: Template[] }).templates);
  }
}

export class LimitedEmitter implements Emitter {
  buffer = '';
  constructor(private readonly maxSize: number) {}
  write(html: unknown): void {
    const text = toOutputString(html);
    if (this.buffer.length + text.length > this.maxSize) {
      throw new TemplateFailure('template_limit', `output is larger than the limit of ${this.maxSize} characters`);
    }
    this.buffer += text;
  }
}

export function installGuards(liquid: Liquid): void {
  liquid.registerTag('for', CountedForTag);
  liquid.registerTag('tablerow', CountedTablerowTag);

  const renderer = liquid.renderer;
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = function* guarded(templates: Template[], ctx: Context, emitter?: Emitter) {
    const state = maybeStateOf(ctx);
    if (!state) return yield* renderTemplates(templates, ctx, emitter);
    if (LOOP_BODIES.has(templates) && ++state.loopIterations > state.limits.maxLoopIterations) {
      throw new TemplateFailure('template_limit', `loops ran more than ${state.limits.maxLoopIterations} iterations`);
    }
    return yield* renderTemplates(templates, ctx, emitter ?? new LimitedEmitter(state.limits.maxOutputSize));
  };
}

/** Wraps every filter registered so far (call it after the last `registerFilter`). */
export function guardFilters(liquid: Liquid): void {
  for (const [name, implementation] of Object.entries(liquid.filters)) {
    const handler = typeof implementation === 'function' ? implementation : implementation.handler;
    const guarded: FilterImplOptions = {
      raw: typeof implementation === 'function' ? false : implementation.raw,
      handler(value: unknown, ...args: unknown[]) {
        const state = maybeStateOf(this.context);
        if (state) {
          this.context.renderLimit.check(performance.now());
          for (const input of [value, ...args]) {
            if (Array.isArray(input) && input.length > state.limits.maxCollectionSize) {
              throw new TemplateFailure(
                'template_limit',
                `the ${name} filter was given ${input.length} items, more than the limit of ${state.limits.maxCollectionSize}`,
              );
            }
          }
        }
        return handler.call(this, value, ...args);
      },
    };
    liquid.registerFilter(name, guarded);
  }
}
