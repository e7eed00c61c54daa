import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { resolveLimits, type TemplateLimits } from '../limits';
import { TemplateEngine } from '../template-engine';
import type {
  EmailRenderInput,
  EmailRenderResult,
  RenderOptions,
  RenderResult,
  TemplateContext,
  TemplateRenderer,
  TemplateResources,
} from '../types';

export interface IsolatedRendererOptions {
  /** Worker threads rendering at once; more renders wait in a queue. */
  threads: number;
  /** A render still running this long after it started is stopped by terminating its thread. */
  hardTimeoutMs: number;
  /** The engine's limits in every thread (defaults as TemplateEngine's). */
  limits?: Partial<TemplateLimits>;
}

const RESOURCE_METHODS = ['partial', 'layout', 'translation', 'user', 'object', 'tenant', 'subscriptions'] as const;

type Task =
  | { kind: 'text'; source: string; context: TemplateContext; options?: RenderOptions }
  | { kind: 'email'; input: EmailRenderInput; context: TemplateContext };

/**
 * Renders with the same engine as TemplateEngine, on a piscina pool of worker threads, so that
 * a template that keeps the CPU busy inside one node (where liquidjs's own time limit is not
 * checked) holds one thread, never the event loop the other runs share. A render running past
 * `hardTimeoutMs` is stopped by terminating its thread (piscina starts a new one) and answered
 * as a `template_limit` error. Resources (partials, layouts, translations, data lookups) stay
 * on the calling thread and are asked for over a message port.
 */
export class IsolatedRenderer implements TemplateRenderer {
  readonly limits: TemplateLimits;
  private readonly pool: Piscina;
  /** Renders straight-line templates on the calling thread (ADR 0191), under the same limits. */
  private readonly inline: TemplateEngine;
  /** Renders handed to a thread and renders done on the calling thread, since the start. */
  readonly counts = { threaded: 0, inline: 0 };

  constructor(private readonly options: IsolatedRendererOptions) {
    if (!(options.threads >= 1) || !(options.hardTimeoutMs > 0))
      throw new TypeError('threads must be at least 1 and hardTimeoutMs positive');
    this.limits = resolveLimits(options.limits);
    this.inline = new TemplateEngine(this.limits);
    this.pool = new Piscina({
      filename: path.join(__dirname, 'render-worker.js'),
      minThreads: 1,
      maxThreads: options.threads,
      idleTimeout: 30_000,
    });
  }

  /**
   * A template of text and outputs with linear filters only (`TemplateEngine.straightLine`) does
   * no work a thread would need to contain: it is rendered here, saving the hand-over (a message
   * channel and a copy of the context each way), which cost more than such a render (ADR 0191).
   */
  render(source: string, context: TemplateContext, resources?: TemplateResources, options?: RenderOptions): Promise<RenderResult> {
    if (this.inline.straightLine(source)) {
      this.counts.inline++;
      return this.inline.render(source, context, resources, options);
    }
    return this.run({ kind: 'text', source, context, ...(options ? { options } : {}) }, resources);
  }

  renderEmail(input: EmailRenderInput, context: TemplateContext, resources?: TemplateResources): Promise<EmailRenderResult> {
    return this.run({ kind: 'email', input, context }, resources);
  }

  /** Stops the threads; renders still running answer with an error. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }

  private async run<R extends RenderResult | EmailRenderResult>(task: Task, resources: TemplateResources | undefined): Promise<R> {
    this.counts.threaded++;
    const { port1, port2 } = new MessageChannel();
    const stop = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    port1.on('message', (message: { type: 'started' } | { type: 'call'; id: number; method: string; args: unknown[] }) => {
      if (message.type === 'started') timer = setTimeout(() => stop.abort(), this.options.hardTimeoutMs);
      else void answer(port1, resources, message);
    });
    try {
      const methods = resources ? RESOURCE_METHODS.filter((m) => typeof resources[m] === 'function') : undefined;
      return (await this.pool.run(
        { ...task, limits: this.limits, methods, port: port2 },
        { transferList: [port2], signal: stop.signal },
      )) as R;
    } catch (error) {
      if (stop.signal.aborted) {
        return {
          ok: false,
          error: {
            code: 'template_limit',
            message: `the render was stopped after ${this.options.hardTimeoutMs} ms (hard time limit): the template keeps the CPU busy too long`,
          },
        } as R;
      }
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: 'template_render', message: `the template could not be rendered: ${message}` } } as R;
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }
}

/** One resource call from a worker, answered with its value or its error's message. */
async function answer(
  port: MessagePort,
  resources: TemplateResources | undefined,
  call: { id: number; method: string; args: unknown[] },
): Promise<void> {
  try {
    const fn = (resources as unknown as Record<string, (...args: unknown[]) => Promise<unknown>> | undefined)?.[call.method];
    if (!fn) throw new Error(`no ${call.method} resource`);
    const value = await fn.apply(resources, call.args);
    port.postMessage({ id: call.id, value });
  } catch (error) {
    try {
      port.postMessage({ id: call.id, error: error instanceof Error ? error.message : String(error) });
    } catch {
      // the port closed: the render ended meanwhile
    }
  }
}
