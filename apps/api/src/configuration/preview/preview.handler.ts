import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { walkSteps, WorkflowStepT } from '@notify/contracts';
import { DomainError, resourceMissing } from '@notify/domain';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { TEMPLATE_RENDERER } from '@notify/platform';
import { renderMarkdown, type TemplateRenderer } from '@notify/templating';
import { PreviewContexts } from './preview-context';
import { PreviewQuery } from './preview.query';
import { renderStepTemplate } from '@notify/application';

const SAMPLE_CONTENT = '<p>This is where the message goes.</p>';

/** Renders templates with the engine delivery uses; nothing is saved. */
@QueryHandler(PreviewQuery)
export class PreviewHandler implements IQueryHandler<PreviewQuery> {
  constructor(
    @Inject(TEMPLATE_RENDERER) private readonly engine: TemplateRenderer,
    private readonly contexts: PreviewContexts,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ environment, request }: PreviewQuery): Promise<Record<string, unknown>> {
    switch (request.kind) {
      case 'template': {
        const context = await this.contexts.context(environment, request.audience);
        const base = this.contexts.templateResources(environment, request.audience.tenant);
        const inline = request.layout?.html_content
          ? { html_layout: request.layout.html_content, text_layout: request.layout.text_content ?? '{{ content }}' }
          : undefined;
        const resources = inline ? { ...base, layout: async () => inline } : base;
        let template = request.template;
        if (request.channelType === 'email' && (inline || request.layout?.key)) {
          const settings = (template.settings ?? {}) as Record<string, unknown>;
          template = { ...template, settings: { ...settings, layout_key: inline ? '__preview__' : request.layout?.key } };
        }
        return {
          content_type: request.channelType,
          ...(await renderStepTemplate(this.engine, request.channelType, template, context, resources)),
        };
      }
      case 'partial': {
        const { type, content } = request.partial;
        // A partial sees only the parameters it is rendered with: render it as `{% render %}` would, with the data as parameters.
        const data = request.data ?? {};
        const params = Object.keys(data).filter((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
        const source = `{% render "__preview__"${params.map((k) => `, ${k}: data.${k}`).join('')} %}`;
        const resources = {
          ...this.contexts.templateResources(environment),
          partial: async (key: string) =>
            key === '__preview__' ? { content, type: type as 'html' } : this.contexts.templateResources(environment).partial(key),
        };
        const result = await this.engine.render(
          source,
          { recipient: null, actor: null, tenant: null, data, vars: {}, workflow: null },
          resources,
          { escape: type === 'html' ? 'html' : 'none' },
        );
        if (!result.ok) return { result: 'error', type, errors: [{ field: 'content', message: result.error.message }] };
        return { result: 'success', type, content: type === 'markdown' ? renderMarkdown(result.output) : result.output };
      }
      case 'email_layout': {
        const context = await this.contexts.context(environment, request.audience);
        const resources = { ...this.contexts.templateResources(environment, request.audience.tenant), layout: async () => request.layout };
        const email = await this.engine.renderEmail(
          { layoutKey: '__preview__', subject: '', html: SAMPLE_CONTENT, text: 'This is where the message goes.' },
          context,
          resources,
        );
        if (!email.ok)
          return {
            result: 'error',
            errors: [{ field: email.error.field ?? null, line: email.error.line ?? null, message: email.error.message }],
          };
        return { result: 'success', layout: { html_body: email.html, text_body: email.text } };
      }
      case 'workflow_step': {
        const workflow = await this.resources.get(environment, 'workflow', request.workflowKey);
        if (!workflow) throw resourceMissing('workflow');
        const found = walkSteps(workflow.content.steps as WorkflowStepT[]).find(({ step }) => step.ref === request.stepRef);
        if (!found) throw resourceMissing('step');
        const step = found.step;
        if (step.type !== 'channel' || !step.template || !step.channel_type) {
          throw new DomainError(
            'step_not_previewable',
            `Step ${request.stepRef} has no template to preview${step.type === 'channel' ? ' (its channel is not configured)' : ''}`,
            'invalid_request',
          );
        }
        const audience = {
          ...request.audience,
          workflow: { key: workflow.identifier, categories: (workflow.content.categories as string[]) ?? [] },
        };
        const context = await this.contexts.context(environment, audience);
        const rendered = await renderStepTemplate(
          this.engine,
          step.channel_type as string,
          step.template as Record<string, unknown>,
          context,
          this.contexts.templateResources(environment, request.audience.tenant),
        );
        return { content_type: step.channel_type, ...(rendered.result === 'success' ? rendered : { ...rendered, template: {} }) };
      }
    }
  }
}
