import { z } from 'zod';
import { ChannelTypeT } from './channels';

/** Liquid sources are bounded; the templating engine applies its own limits when rendering. */
const Liquid = z.string().max(100_000);
const KeyValue = z.strictObject({ key: z.string().min(1).max(1000), value: z.string().max(10_000) });

export const InAppFeedTemplate = z.strictObject({
  markdown_body: Liquid,
  action_url: Liquid.nullable().optional(),
  action_buttons: z
    .array(z.strictObject({ label: z.string().min(1).max(255), action: Liquid }))
    .max(2)
    .optional(),
});

const Padding = {
  padding_top: z.number().int().min(0),
  padding_right: z.number().int().min(0),
  padding_bottom: z.number().int().min(0),
  padding_left: z.number().int().min(0),
};
const Align = z.enum(['left', 'center', 'right']);
const blockBase = { id: z.uuid().optional(), version: z.number().int().optional() };

export const EmailVisualBlock = z.discriminatedUnion('type', [
  z.strictObject({
    ...blockBase,
    type: z.literal('markdown'),
    content: Liquid,
    variant: z.literal('default').optional(),
    layout_attrs: z.strictObject(Padding).optional(),
  }),
  z.strictObject({ ...blockBase, type: z.literal('html'), content: Liquid, layout_attrs: z.strictObject(Padding).optional() }),
  z.strictObject({ ...blockBase, type: z.literal('divider'), layout_attrs: z.strictObject(Padding).optional() }),
  z.strictObject({
    ...blockBase,
    type: z.literal('image'),
    /** An absolute URL, as the reference has it (answered as given; ADR 0116). */
    url: z.url('must be an absolute URL').max(2000),
    action: z.string().max(2000).nullable().optional(),
    alt: z.string().max(1000).nullable().optional(),
    style_attrs: z.strictObject({ width: z.string().max(50).optional() }).optional(),
    layout_attrs: z.strictObject({ ...Padding, horizontal_align: Align }).optional(),
  }),
  z.strictObject({
    ...blockBase,
    type: z.literal('button_set'),
    buttons: z
      .array(
        z.strictObject({
          label: z.string().min(1).max(255),
          action: Liquid,
          variant: z.enum(['solid', 'outline']),
          size_attrs: z.strictObject({ is_fullwidth: z.boolean().optional(), size: z.enum(['sm', 'md', 'lg']).optional() }).optional(),
          style_attrs: z
            .strictObject({
              background_color: z.string().max(50).optional(),
              border_color: z.string().max(50).optional(),
              border_radius: z.number().int().min(0).optional(),
              border_width: z.number().int().min(0).optional(),
              text_color: z.string().max(50).optional(),
            })
            .optional(),
        }),
      )
      .min(1)
      .max(10),
    layout_attrs: z.strictObject({ ...Padding, horizontal_align: Align, column_gap: z.number().int().min(0) }).optional(),
  }),
  z.strictObject({
    ...blockBase,
    type: z.literal('partial'),
    key: z.string().min(1).max(255),
    name: z.string().min(1).max(255),
    attrs: z.record(z.string(), z.unknown()),
    layout_attrs: z.strictObject(Padding).optional(),
  }),
]);

export const EmailTemplate = z
  .strictObject({
    subject: Liquid.max(10_000),
    // Required by the reference (EmailTemplate.required); `{ "layout_key": null }` sends without a layout.
    settings: z.strictObject(
      {
        layout_key: z.string().max(255).nullable().optional(),
        attachment_key: z.string().max(255).nullable().optional(),
        pre_content: Liquid.nullable().optional(),
      },
      {
        error: (issue) =>
          issue.input === undefined
            ? 'is required: an object with at least layout_key (the key of an email layout, or null for none)'
            : undefined,
      },
    ),
    html_body: Liquid.nullable().optional(),
    text_body: Liquid.nullable().optional(),
    is_mjml: z.boolean().nullable().optional(),
    visual_blocks: z.array(EmailVisualBlock).max(200).nullable().optional(),
  })
  .superRefine((t, ctx) => {
    const html = t.html_body !== undefined && t.html_body !== null;
    const blocks = t.visual_blocks !== undefined && t.visual_blocks !== null;
    if (html === blocks)
      ctx.addIssue({
        code: 'custom',
        path: [html ? 'visual_blocks' : 'html_body'],
        message: 'exactly one of html_body and visual_blocks must be set',
      });
  });

export const SmsTemplate = z.strictObject({
  text_body: Liquid,
  settings: z
    .strictObject({ payload_overrides: Liquid.nullable().optional(), to_number: Liquid.nullable().optional() })
    .nullable()
    .optional(),
});

export const PushTemplate = z.strictObject({
  title: Liquid.max(10_000),
  text_body: Liquid,
  settings: z.strictObject({ delivery_type: z.enum(['silent', 'content']), payload_overrides: Liquid.optional() }),
});

export const ChatTemplate = z.strictObject({ markdown_body: Liquid, json_body: Liquid.nullable().optional(), summary: Liquid.optional() });

export const RequestMethod = z.enum(['get', 'post', 'put', 'delete', 'patch']);

export const WebhookTemplate = z.strictObject({
  url: Liquid.min(1).max(2000),
  method: RequestMethod,
  body: Liquid.nullable().optional(),
  headers: z.array(KeyValue).max(50).optional(),
  query_params: z.array(KeyValue).max(50).optional(),
});

/** The request a fetch step makes; headers and query params are a Liquid string or key/value pairs. */
export const RequestTemplate = z.strictObject({
  url: Liquid.min(1).max(2000),
  method: RequestMethod,
  body: Liquid.nullable().optional(),
  headers: z.union([Liquid, z.array(KeyValue).max(50)]).optional(),
  query_params: z.union([Liquid, z.array(KeyValue).max(50)]).optional(),
});

/** The template shape each channel type takes; in-app guides take a guide_key instead. */
export const templateSchemaFor: Record<ChannelTypeT, z.ZodType | null> = {
  email: EmailTemplate,
  in_app: InAppFeedTemplate,
  in_app_feed: InAppFeedTemplate,
  in_app_guide: null,
  sms: SmsTemplate,
  push: PushTemplate,
  chat: ChatTemplate,
  http: WebhookTemplate,
};

/** Template fields that hold Liquid, by channel type: what validation and the CLI's file extraction look at. */
export const templateFields: Record<ChannelTypeT, Record<string, string>> = {
  email: { subject: 'txt', html_body: 'html', text_body: 'txt' },
  in_app: { markdown_body: 'md' },
  in_app_feed: { markdown_body: 'md' },
  in_app_guide: {},
  sms: { text_body: 'txt' },
  push: { text_body: 'txt' },
  chat: { markdown_body: 'md', json_body: 'json' },
  http: { body: 'json' },
};
