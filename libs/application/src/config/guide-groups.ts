import {
  fold,
  GuideGroupCommand,
  guideGroupDecider,
  GuideGroupEvent,
  GuideGroupSettings,
  GuideGroupState,
  guideGroupStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';

/** Sets an environment's guide group (ADR 0166); the guide keys were checked by the caller. */
export function setGuideGroup(
  store: EventStore,
  environment: string,
  key: string,
  settings: GuideGroupSettings,
  metadata: CommandMetadata,
): Promise<CommandOutcome<GuideGroupState, GuideGroupEvent>> {
  const command: GuideGroupCommand = { type: 'SetGuideGroup', key, settings, now: new Date().toISOString() };
  return handleCommand(store, guideGroupStream(environment, key), guideGroupDecider, command, { ...metadata, environment });
}

/** The group as configured: read from its stream (a handful of events), not from a read model. */
export async function readGuideGroup(store: EventStore, environment: string, key: string): Promise<GuideGroupState> {
  const history = await store.readStream(guideGroupStream(environment, key));
  return fold<GuideGroupState, GuideGroupEvent>(guideGroupDecider, history.map(toDomainEvent) as GuideGroupEvent[]);
}
