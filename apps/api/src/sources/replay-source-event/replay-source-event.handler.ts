import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, RecipientDeps, replaySourceEvent, SourceTemplates } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { CLOCK, Clock, ENGINE_LOOKUPS, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { SourceQueries } from '@notify/projections/sources';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { commandMetadata } from '../../shared/command-metadata';
import { SOURCE_TEMPLATES } from '../source-deps';
import { ReplaySourceEventCommand } from './replay-source-event.command';

/** Runs a recorded source event again through today's mappings, as a new log (ADR 0246). */
@CommandHandler(ReplaySourceEventCommand)
export class ReplaySourceEventHandler implements ICommandHandler<ReplaySourceEventCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SOURCE_TEMPLATES) private readonly templates: SourceTemplates,
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly sources: SourceQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, key, logId }: ReplaySourceEventCommand) {
    const result = await replaySourceEvent(
      {
        store: this.store,
        templates: this.templates,
        trigger: { recipients: this.recipients, lookups: this.lookups, clock: this.clock },
        source: (env, k) => this.sources.get(env, k),
      },
      ctx.environment,
      key,
      logId,
      commandMetadata(ctx),
    );
    if (result.outcome.append) await this.consistency.settle(result.outcome.append, result.outcome.events);
    return { log_id: result.log_id, status: 'accepted' as const, replay_of: result.replay_of };
  }
}
