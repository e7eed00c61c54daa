import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, ingestSourceEvent, RecipientDeps, SourceTemplates } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { CLOCK, Clock, ENGINE_LOOKUPS, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { GoalQueries } from '@notify/projections/goals';
import { SourceQueries } from '@notify/projections/sources';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { SOURCE_INGEST_SECRET, SOURCE_TEMPLATES } from '../source-deps';
import { IngestSourceEventCommand } from './ingest-source-event.command';

/** Answers once the event and what its actions did are recorded; the runs themselves execute in the worker. */
@CommandHandler(IngestSourceEventCommand)
export class IngestSourceEventHandler implements ICommandHandler<IngestSourceEventCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SOURCE_TEMPLATES) private readonly templates: SourceTemplates,
    @Inject(SOURCE_INGEST_SECRET) private readonly secret: Buffer,
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly sources: SourceQueries,
    private readonly goals: GoalQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ environment, key, presentedKey, body, headers, metadata }: IngestSourceEventCommand) {
    const result = await ingestSourceEvent(
      {
        store: this.store,
        templates: this.templates,
        trigger: { recipients: this.recipients, lookups: this.lookups, clock: this.clock },
        ingestSecret: this.secret,
        source: (env, k) => this.sources.get(env, k),
        goals: this.goals,
      },
      environment,
      key,
      presentedKey,
      { body, headers },
      metadata,
    );
    await this.consistency.settleAll([
      ...(result.outcome.append ? [{ append: result.outcome.append, events: result.outcome.events }] : []),
      ...result.conversions,
    ]);
    return { log_id: result.log_id, status: result.status };
  }
}
