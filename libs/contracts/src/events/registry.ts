import { EventContract } from './define-event';
import { channelEventContracts, channelGroupEventContracts } from '../config/channels';
import { commitEventContracts } from '../config/commits';
import { guideEventContracts } from '../config/guides';
import { guideGroupEventContracts } from '../config/guide-groups';
import { guideEngagementEventContracts } from '../guides/user-guides';
import { resourceEventContracts } from '../config/resources';
import { preferenceCenterEventContracts } from '../config/preference-center';
import { variableEventContracts } from '../config/variables';
import { workflowEventContracts } from '../config/workflows';
import { tagEventContracts } from '../config/tags';
import { branchEventContracts } from '../config/branches';
import { memberEventContracts } from '../config/members';
import { consoleSessionEventContracts } from '../config/console-sessions';
import { assetEventContracts } from '../config/assets';
import { itemSchemaEventContracts } from '../config/item-schemas';
import { messageEventContracts } from '../messages/message.events';
import { batchEventContracts } from '../runs/batch.events';
import { runEventContracts } from '../runs/run.events';
import { userEventContracts } from '../recipients/users';
import { recipientEventContracts } from '../recipients/events';
import { accountEventContracts, environmentEventContracts } from './environment.events';
import { idempotencyEventContracts } from '../http/idempotency.events';
import { scheduleEventContracts } from '../schedules/schedules';
import { broadcastEventContracts } from '../broadcasts/broadcasts';
import { sourceEventContracts } from '../sources/sources';
import { goalEventContracts } from '../goals/goals';
import { suppressionEventContracts } from '../receipts/receipts';

/** Every event type the service writes. Kafka schemas and upcasting read from here. */
const all: readonly EventContract[] = [
  ...environmentEventContracts,
  ...accountEventContracts,
  ...userEventContracts,
  ...channelEventContracts,
  ...messageEventContracts,
  ...runEventContracts,
  ...batchEventContracts,
  ...recipientEventContracts,
  ...idempotencyEventContracts,
  ...scheduleEventContracts,
  ...broadcastEventContracts,
  ...sourceEventContracts,
  ...goalEventContracts,
  ...guideEngagementEventContracts,
  ...suppressionEventContracts,
];

/** Workflow configuration: workflows, templates' resources, variables, channel groups, commits. */
const configuration: readonly EventContract[] = [
  ...workflowEventContracts,
  ...resourceEventContracts,
  ...guideEventContracts,
  ...guideGroupEventContracts,
  ...commitEventContracts,
  ...variableEventContracts,
  ...channelGroupEventContracts,
  ...tagEventContracts,
  ...branchEventContracts,
  ...memberEventContracts,
  ...consoleSessionEventContracts,
  ...assetEventContracts,
  ...itemSchemaEventContracts,
  ...preferenceCenterEventContracts,
];

export const eventContracts: ReadonlyMap<string, EventContract> = new Map([...all, ...configuration].map((c) => [c.type, c]));

export function schemaVersionOf(type: string): number {
  const contract = eventContracts.get(type);
  if (!contract) throw new Error(`No contract for event type ${type}`);
  return contract.version;
}
