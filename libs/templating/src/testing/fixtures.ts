import type { EmailLayout, PartialType, TemplateContext, TemplateResources } from '../types';

/** A recipient run as the worker would hand it to the engine. */
export function aContext(overrides: Partial<TemplateContext> = {}): TemplateContext {
  return {
    recipient: { id: 'jane', name: 'Jane Doe', email: 'jane@example.com', locale: 'fr-CA', timezone: 'America/New_York' },
    actor: { id: 'ian', name: 'Ian Malcolm' },
    tenant: { id: 'acme', name: 'Acme Corp' },
    data: { project: 'Park', count: 3 },
    vars: { app_name: 'Notify', app_url: 'https://notify.example' },
    workflow: { key: 'welcome', categories: ['onboarding', 'product'] },
    ...overrides,
  };
}

export interface FakeResourcesInput {
  partials?: Record<string, string | { content: string; type?: PartialType }>;
  layouts?: Record<string, EmailLayout>;
  /** Keyed by locale, or `locale:namespace`. */
  translations?: Record<string, Record<string, unknown>>;
  users?: Record<string, Record<string, unknown>>;
  objects?: Record<string, Record<string, unknown>>;
  tenants?: Record<string, Record<string, unknown>>;
  subscriptions?: Record<string, Record<string, unknown>[]>;
}

/** In-memory resources that record every lookup, so tests can assert what the engine asked for. */
export function fakeResources(input: FakeResourcesInput = {}): TemplateResources & { calls: string[] } {
  const calls: string[] = [];
  const resources: TemplateResources & { calls: string[] } = {
    calls,
    async partial(key) {
      calls.push(`partial:${key}`);
      const found = input.partials?.[key];
      if (found === undefined) return undefined;
      return typeof found === 'string' ? { content: found, type: 'html' } : found;
    },
    async layout(key) {
      calls.push(`layout:${key}`);
      return input.layouts?.[key];
    },
    async translation(locale, namespace) {
      const key = namespace ? `${locale}:${namespace}` : locale;
      calls.push(`translation:${key}`);
      return input.translations?.[key];
    },
  };
  if (input.users) resources.user = async (id) => (calls.push(`user:${id}`), input.users![id]);
  if (input.objects)
    resources.object = async (collection, id) => (calls.push(`object:${collection}/${id}`), input.objects![`${collection}/${id}`]);
  if (input.tenants) resources.tenant = async (id) => (calls.push(`tenant:${id}`), input.tenants![id]);
  if (input.subscriptions) resources.subscriptions = async (id) => (calls.push(`subscriptions:${id}`), input.subscriptions![id] ?? []);
  return resources;
}

type Engine = import('../template-engine').TemplateEngine;
type Options = { resources?: TemplateResources; escape?: 'html' | 'none' };

/** Renders and returns the output; a failed render fails the test with the error it returned. */
export async function renderOk(
  engine: Engine,
  source: string,
  context: TemplateContext = aContext(),
  options: Options = {},
): Promise<string> {
  const result = await engine.render(source, context, options.resources, { escape: options.escape });
  if (!result.ok) throw new Error(`expected the render to succeed, got ${JSON.stringify(result.error)}`);
  return result.output;
}

/** Renders and returns the error; a render that succeeds fails the test. */
export async function renderError(engine: Engine, source: string, context: TemplateContext = aContext(), options: Options = {}) {
  const result = await engine.render(source, context, options.resources, { escape: options.escape });
  if (result.ok) throw new Error(`expected the render to fail, got output ${JSON.stringify(result.output)}`);
  return result.error;
}
