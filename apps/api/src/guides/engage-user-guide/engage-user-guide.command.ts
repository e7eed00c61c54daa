import { Command } from '@nestjs/cqrs';
import { GuideStepAction } from '@notify/application';
import { RequestContext } from '@notify/http';

export interface GuideStepEngagement {
  action: GuideStepAction;
  channelId: string;
  guideId: string;
  guideKey: string;
  stepRef: string;
  tenant: string | null;
  data?: Record<string, unknown> | null;
  metadata?: Record<string, unknown> | null;
  /** Archived: the guide's last step, so the whole guide is archived. */
  isFinal?: boolean;
}
export interface GuideWideEngagement {
  action: 'unarchived' | 'reset';
  guideKey: string;
  tenant: string | null;
}
export type GuideEngagement = GuideStepEngagement | GuideWideEngagement;
export const isGuideWide = (e: GuideEngagement): e is GuideWideEngagement => e.action === 'unarchived' || e.action === 'reset';

export class EngageUserGuideCommand extends Command<{ status: 'ok' }> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly engagement: GuideEngagement,
  ) {
    super();
  }
}
