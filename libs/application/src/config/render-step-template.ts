import { renderMarkdown, TemplateContext, TemplateError, TemplateRenderer, TemplateResources } from '@notify/templating';

export interface PreviewError {
  field: string | null;
  line?: number | null;
  message: string;
}

export type Rendered = { result: 'success'; template: Record<string, unknown> } | { result: 'error'; errors: PreviewError[] };

const toError = (e: TemplateError, field?: string): PreviewError => ({
  field: e.field ?? field ?? null,
  line: e.line ?? null,
  message: e.message,
});

/** Renders each Liquid field of a channel template, the way delivery will, and reports the first failure of each. */
export async function renderStepTemplate(
  engine: TemplateRenderer,
  channelType: string,
  template: Record<string, unknown>,
  context: TemplateContext,
  resources: TemplateResources,
): Promise<Rendered> {
  const errors: PreviewError[] = [];
  const out: Record<string, unknown> = {};
  const text = async (field: string, escape: 'html' | 'none' = 'none') => {
    const source = template[field];
    if (typeof source !== 'string') return;
    const result = await engine.render(source, context, resources, { escape });
    if (result.ok) out[field] = result.output;
    else errors.push(toError(result.error, field));
  };
  switch (channelType) {
    case 'email': {
      const settings = (template.settings ?? {}) as { layout_key?: string | null; pre_content?: string | null };
      const email = await engine.renderEmail(
        {
          layoutKey: settings.layout_key,
          subject: String(template.subject ?? ''),
          html: String(template.html_body ?? ''),
          text: template.text_body as string | null,
          precontent: settings.pre_content,
        },
        context,
        resources,
      );
      if (!email.ok) errors.push(toError(email.error));
      else Object.assign(out, { subject: email.subject, html_body: email.html, text_body: email.text, settings: template.settings });
      break;
    }
    case 'in_app':
    case 'in_app_feed':
      await text('markdown_body');
      await text('action_url');
      if (typeof out.markdown_body === 'string') out.html_body = renderMarkdown(out.markdown_body);
      if (Array.isArray(template.action_buttons)) {
        out.action_buttons = [];
        for (const button of template.action_buttons as { label: string; action: string }[]) {
          const action = await engine.render(button.action, context, resources);
          if (action.ok) (out.action_buttons as unknown[]).push({ ...button, action: action.output });
          else errors.push(toError(action.error, 'action_buttons'));
        }
      }
      break;
    case 'sms':
      await text('text_body');
      break;
    case 'push':
      await text('title');
      await text('text_body');
      out.settings = template.settings;
      break;
    case 'chat':
      await text('markdown_body');
      await text('json_body');
      await text('summary');
      break;
    case 'http':
      await text('url');
      await text('body');
      out.method = template.method;
      break;
    default:
      errors.push({ field: 'channel_type', message: `${channelType} templates cannot be previewed`, line: null });
  }
  return errors.length ? { result: 'error', errors } : { result: 'success', template: out };
}
