import { expandRecorded } from '@notify/contracts';
import { fold, userDecider, UserEvent } from '@notify/domain';
import { AppendResult, EventStore, RecordedEvent } from '@notify/eventstore';
import { toDomainEvent } from '../handle-command';
import { convertForGoalEvent, GoalLookups } from './goal-use-cases';

/** The events recipient and audience goals are met by (ADR 0247): a user identified again, users entering or exiting a static audience. */
export const GOAL_RECIPIENT_EVENT_TYPES: readonly string[] = ['UserIdentified', 'AudienceMembersAdded', 'AudienceMembersRemoved'];
export const GOAL_RECIPIENT_STREAM_PREFIXES: readonly string[] = ['user-', 'audience-'];

type Written = { append: AppendResult; events: { type: string }[] }[];

/**
 * Meets `audience` goals (`{"event_type": "audience", "audience_key", "event_key": "enter" |
 * "exit"}`) when users are added to or removed from that static audience (each member a user
 * whose runs may convert), and `recipient` goals (`{"event": {"event_type": "recipient", "event_key": "updated"}}`) when
 * a user is updated: the goal's match conditions see the user's properties as they were right
 * after this event (the user's stream folded up to it, so a later change or a lagging read model
 * cannot change the answer) under `recipient`, and what the update set under
 * `event.properties`. Each conversion is its own stream appended only if absent, so handling an
 * event again converts nothing twice.
 */
export class GoalRecipientMatcher {
  constructor(
    private readonly store: EventStore,
    private readonly goals: GoalLookups,
  ) {}

  async handle(events: readonly RecordedEvent[]): Promise<Written> {
    const written: Written = [];
    // Most environments have no recipient goal: one read per environment and batch finds out.
    const hasGoals = new Map<string, Promise<boolean>>();
    const anyIn = (environment: string) => {
      if (!hasGoals.has(environment))
        hasGoals.set(
          environment,
          this.goals.forRecipientEvent(environment).then((g) => g.length > 0),
        );
      return hasGoals.get(environment)!;
    };
    for (const recorded of events) {
      const environment = recorded.metadata.environment;
      if (!environment) continue;
      if (recorded.streamId.startsWith('audience-')) {
        written.push(...(await this.audienceEvent(environment, recorded)));
        continue;
      }
      if (!recorded.streamId.startsWith('user-')) continue;
      for (const event of expandRecorded(recorded)) {
        if (event.type !== 'UserIdentified') continue;
        if (!(await anyIn(environment))) continue;
        const data = event.data as { user_id: string; properties: Record<string, unknown>; identified_at?: string };
        const upTo = await this.store.readStream(recorded.streamId, { maxCount: recorded.revision + 1 });
        const state = fold(
          userDecider,
          upTo.flatMap((e) => expandRecorded(e)).map((e) => toDomainEvent(e) as UserEvent),
        );
        const at = data.identified_at ?? recorded.createdAt.toISOString();
        written.push(
          ...(await convertForGoalEvent(
            this.store,
            this.goals,
            environment,
            {
              type: 'recipient_event',
              event: 'updated',
              variables: {
                recipient: { ...state.properties, id: data.user_id },
                event: { type: 'recipient.updated', properties: data.properties },
              },
              at,
            },
            data.user_id,
            { environment, correlation_id: recorded.metadata.correlation_id, causation_id: recorded.id },
          )),
        );
      }
    }
    return written;
  }

  private async audienceEvent(environment: string, recorded: RecordedEvent): Promise<Written> {
    if (recorded.type !== 'AudienceMembersAdded' && recorded.type !== 'AudienceMembersRemoved') return [];
    const data = recorded.data as { audience_key: string; members: { user_id: string }[]; added_at?: string; removed_at?: string };
    const event = recorded.type === 'AudienceMembersAdded' ? 'enter' : 'exit';
    if ((await this.goals.forAudienceEvent(environment, data.audience_key, event)).length === 0) return [];
    const at = data.added_at ?? data.removed_at ?? recorded.createdAt.toISOString();
    const written: Written = [];
    for (const userId of new Set(data.members.map((m) => m.user_id)))
      written.push(
        ...(await convertForGoalEvent(
          this.store,
          this.goals,
          environment,
          { type: 'audience_event', audience_key: data.audience_key, event, at },
          userId,
          { environment, correlation_id: recorded.metadata.correlation_id, causation_id: recorded.id },
        )),
      );
    return written;
  }
}
