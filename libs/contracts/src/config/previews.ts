import { z } from 'zod';
import { Id } from '../http/ids';
import { defineRoute } from '../http/route';
import { EnvironmentQuery, ResourceKey } from './mgmt';
import { EmailLayoutRequest, PartialRequest } from './resources';
import { StepRef } from './workflow-steps';

/** A user id, or an object reference; users are looked up, objects and tenants are shown by id. */
export const PreviewRecipient = z.union([Id, z.object({ id: Id, collection: Id })]);

const PreviewError = z.object({ field: z.string().nullable(), line: z.number().int().nullable().optional(), message: z.string() });
const Outcome = { result: z.enum(['success', 'error']), errors: z.array(PreviewError).nullable().optional() };
const PreviewChannelType = z.enum(['email', 'sms', 'push', 'chat', 'in_app_feed']);

const Audience = {
  recipient: PreviewRecipient,
  actor: PreviewRecipient.nullable().optional(),
  tenant: Id.nullable().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
};

export const previewTemplateRoute = defineRoute({
  operationId: 'previewTemplate',
  method: 'POST',
  path: '/v1/templates/preview',
  summary: 'Render a channel template for a recipient, actor, tenant and data, without saving anything',
  tags: ['Templates'],
  auth: 'service',
  // Writes nothing: a viewer may check and render (ADR 0210).
  access: 'read',
  rateTier: 3,
  query: EnvironmentQuery,
  body: z.object({
    ...Audience,
    channel_type: PreviewChannelType,
    template: z.record(z.string(), z.unknown()),
    layout: z
      .object({
        key: z.string().nullable().optional(),
        html_content: z.string().nullable().optional(),
        text_content: z.string().nullable().optional(),
      })
      .nullable()
      .optional(),
    workflow: z
      .object({ key: z.string(), categories: z.array(z.string()).nullable().optional() })
      .nullable()
      .optional(),
  }),
  response: z.object({ ...Outcome, content_type: PreviewChannelType, template: z.record(z.string(), z.unknown()).optional() }),
});

export const previewPartialRoute = defineRoute({
  operationId: 'previewPartial',
  method: 'POST',
  path: '/v1/partials/preview',
  summary: 'Render a partial with the given data',
  tags: ['Partials'],
  auth: 'service',
  rateTier: 3,
  query: EnvironmentQuery,
  body: z.object({
    partial: PartialRequest,
    data: z.record(z.string(), z.unknown()).optional(),
    layout: z.object({ key: z.string().nullable().optional() }).nullable().optional(),
  }),
  response: z.object({ ...Outcome, type: z.enum(['html', 'text', 'json', 'markdown']), content: z.string().nullable().optional() }),
});

export const previewEmailLayoutRoute = defineRoute({
  operationId: 'previewEmailLayout',
  method: 'POST',
  path: '/v1/email_layouts/preview',
  summary: 'Render an email layout around sample content for a recipient',
  tags: ['Email layouts'],
  auth: 'service',
  rateTier: 3,
  query: EnvironmentQuery,
  body: z.object({
    ...Audience,
    email_layout: EmailLayoutRequest,
    workflow: z
      .object({ key: z.string(), categories: z.array(z.string()).nullable().optional() })
      .nullable()
      .optional(),
  }),
  response: z.object({
    ...Outcome,
    layout: z.object({ html_body: z.string().nullable(), text_body: z.string().nullable() }).nullable().optional(),
  }),
});

export const previewWorkflowTemplateRoute = defineRoute({
  operationId: 'previewWorkflowTemplate',
  method: 'POST',
  path: '/v1/workflows/{workflow_key}/steps/{step_ref}/preview_template',
  summary: "Render a workflow channel step's template (the version shown by default) for a recipient",
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 3,
  params: z.object({ workflow_key: ResourceKey, step_ref: StepRef }),
  query: EnvironmentQuery,
  body: z.object(Audience),
  response: z.object({
    ...Outcome,
    content_type: z.enum(['email', 'sms', 'push', 'chat', 'in_app_feed', 'http']),
    template: z.record(z.string(), z.unknown()),
  }),
});
