import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import { engageMessage } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { BatchDeduplicator } from '@notify/http';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { MessageAccess } from '../message-access';
import { EngageMessagesCommand } from './engage-message.command';

/**
 * Engagement is a command on each message's stream (the decider marks read as seen too, and
 * records nothing for a mark already set); the answer shows the messages after the change.
 */
@CommandHandler(EngageMessagesCommand)
export class EngageMessagesHandler implements ICommandHandler<EngageMessagesCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly access: MessageAccess,
    private readonly consistency: ReadYourWrites,
    private readonly dedup: BatchDeduplicator,
  ) {}

  async execute({ ctx, messageIds, action, batch, metadata }: EngageMessagesCommand) {
    let ids = [...new Set(messageIds)];
    let ratelimited: string[] = [];
    if (batch) {
      const { accepted, dropped } = await this.dedup.claim(ctx.environment, 'messages', ids);
      ids = accepted.map((i) => ids[i]);
      ratelimited = dropped;
    } else {
      await this.access.get(ctx, ids[0]);
    }
    const visible = batch ? (await this.access.getMany(ctx, ids)).map((m) => m.id) : ids;
    const meta = commandMetadata(ctx);
    const outcomes = await Promise.all(visible.map((id) => engageMessage(this.store, ctx.environment, id, action, meta, { metadata })));
    await this.consistency.settleAll(outcomes.flatMap((o) => (o.append ? [{ append: o.append, events: o.events }] : [])));
    return { messages: await this.access.getMany(ctx, visible), ratelimited };
  }
}
