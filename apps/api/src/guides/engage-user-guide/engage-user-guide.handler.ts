import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { engageGuideStep, guideId, resetGuideEngagement, unarchiveGuide } from '@notify/application';
import { invalidParams, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { ServedGuides } from '../served-guides';
import { EngageUserGuideCommand, isGuideWide } from './engage-user-guide.command';

/** Each engagement is an event on the step's guide message (created at the first one); a reset starts new messages (ADR 0187). */
@CommandHandler(EngageUserGuideCommand)
export class EngageUserGuideHandler implements ICommandHandler<EngageUserGuideCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly guides: ServedGuides,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, userId, engagement }: EngageUserGuideCommand): Promise<{ status: 'ok' }> {
    const e = engagement;
    const environment = ctx.environment;
    const recipient = { environment, userId, tenant: e.tenant };
    const metadata = commandMetadata(ctx);
    if (isGuideWide(e)) {
      const record = await this.resources.get(environment, 'guide', e.guideKey);
      if (!record) throw resourceMissing('guide');
      const guide = { key: record.identifier, steps: record.content.steps as { ref: string }[] };
      if (e.action === 'reset') {
        const outcome = await resetGuideEngagement(this.store, recipient, guide, metadata);
        await this.consistency.settle(outcome.append, outcome.events);
      } else {
        const outcomes = await unarchiveGuide(this.store, recipient, guide, metadata);
        await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
      }
      return { status: 'ok' };
    }
    const channel = await this.guides.channel(environment, e.channelId, 'channel_id');
    const { guide } = await this.guides.get(environment, channel, e.guideKey);
    if (e.guideId !== guideId(environment, guide.key))
      throw invalidParams([{ field: 'guide_id', message: `is not the id of guide ${guide.key}`, type: 'mismatch' }]);
    if (!guide.steps.some((s) => s.ref === e.stepRef))
      throw invalidParams([{ field: 'guide_step_ref', message: `guide ${guide.key} has no step ${e.stepRef}`, type: 'reference' }]);
    // Archiving the final step archives the whole guide: every step.
    const refs = e.action === 'archived' && e.isFinal ? guide.steps.map((s) => s.ref) : [e.stepRef];
    const outcomes = [];
    for (const ref of refs)
      outcomes.push(
        ...(await engageGuideStep(this.store, recipient, guide, ref, e.action, { data: e.data, metadata: e.metadata }, metadata)),
      );
    await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
    return { status: 'ok' };
  }
}
