import { Query } from '@nestjs/cqrs';
import { Audience } from './preview-context';

export type PreviewRequest =
  | {
      kind: 'template';
      channelType: string;
      template: Record<string, unknown>;
      layout?: { key?: string | null; html_content?: string | null; text_content?: string | null } | null;
      audience: Audience;
    }
  | { kind: 'partial'; partial: { type: string; content: string }; data?: Record<string, unknown> }
  | {
      kind: 'email_layout';
      layout: { html_layout: string; text_layout: string; footer_links?: { text: string; url: string }[] };
      audience: Audience;
    }
  | { kind: 'workflow_step'; workflowKey: string; stepRef: string; audience: Audience };

export class PreviewQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly environment: string,
    readonly request: PreviewRequest,
  ) {
    super();
  }
}
