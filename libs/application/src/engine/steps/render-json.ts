import type { StepContext } from '../step-handler';

/** Renders a JSON-or-Liquid setting with the run's variables and parses the result. */
export async function renderJsonSetting(
  ctx: StepContext,
  source: string,
  field: string,
): Promise<{ ok: true; value: unknown } | { ok: false; reason: string }> {
  const rendered = await ctx.deps.templates.render(
    source,
    await ctx.variables(),
    ctx.deps.lookups.templateResources(ctx.environment, { tenant: ctx.state.run!.tenant }),
  );
  if (!rendered.ok) return { ok: false, reason: `template_render_error: ${field}: ${rendered.error.message}` };
  try {
    return { ok: true, value: JSON.parse(rendered.output) };
  } catch (error) {
    return { ok: false, reason: `${field} is not valid JSON after rendering: ${(error as Error).message}` };
  }
}
