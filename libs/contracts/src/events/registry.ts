import { EventContract } from './define-event';
import { channelEventContracts } from '../config/channels';
import { messageEventContracts } from '../messages/message.events';
import { batchEventContracts } from '../runs/batch.events';
import { runEventContracts } from '../runs/run.events';
import { userEventContracts } from '../recipients/users';
import { recipientEventContracts } from '../recipients/events';
import { accountEventContracts, environmentEventContracts } from './environment.events';

/** Every event type the service writes. Kafka schemas and upcasting read from here. */
const all: readonly EventContract[] = [...environmentEventContracts, ...accountEventContracts, ...userEventContracts, ...channelEventContracts, ...messageEventContracts, ...runEventContracts, ...batchEventContracts, ...recipientEventContracts];

export const eventContracts: ReadonlyMap<string, EventContract> = new Map(all.map((c) => [c.type, c]));

export function schemaVersionOf(type: string): number {
  const contract = eventContracts.get(type);
  if (!contract) throw new Error(`No contract for event type ${type}`);
  return contract.version;
}
