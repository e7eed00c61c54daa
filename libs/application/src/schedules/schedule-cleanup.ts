import type { RecipientRefT } from '@notify/contracts';
import type { RecordedEvent } from '@notify/eventstore';
import { CommandMetadata } from '../handle-command';
import { RecipientDeps } from '../recipients/ports';
import { deleteSchedules } from './schedule-use-cases';

export interface ScheduleCleanupDeps {
  recipients: RecipientDeps;
  /** Ids of the recipient's schedules, once the schedules read model has reached `position`. */
  schedulesOf(environment: string, recipient: RecipientRefT, position: string): Promise<string[]>;
}

/**
 * Deleting a user or an object deletes its schedules: ScheduleDeleted (reason
 * recipient_deleted) on each, with ids derived from the deletion event, so a redelivered
 * deletion records nothing twice.
 */
export class ScheduleCleanup {
  readonly eventTypes = ['UserDeleted', 'ObjectDeleted'];

  constructor(private readonly deps: ScheduleCleanupDeps) {}

  async handle(event: RecordedEvent): Promise<number> {
    const environment = event.metadata.environment!;
    const data = event.data as { user_id?: string; collection?: string; object_id?: string };
    const recipient: RecipientRefT =
      event.type === 'UserDeleted'
        ? { type: 'user', id: data.user_id! }
        : { type: 'object', collection: data.collection!, id: data.object_id! };
    const ids = await this.deps.schedulesOf(environment, recipient, event.position);
    if (ids.length === 0) return 0;
    const metadata: CommandMetadata = {
      environment,
      correlation_id: event.metadata.correlation_id ?? event.id,
      causation_id: event.id,
      actor: 'system:schedules',
    };
    const writes = await deleteSchedules(this.deps, environment, ids, 'recipient_deleted', metadata, { seed: `cleanup:${event.id}` });
    return writes.appends.length;
  }
}
