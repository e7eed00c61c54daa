import { TagRequest } from '@notify/contracts';
import { TagEvent, tagDecider, TagState, tagStream } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { z } from 'zod';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

/** Creates a tag of the account's catalog, or replaces its description and color (omitted fields become null). */
export function upsertTag(
  store: EventStore,
  name: string,
  tag: z.infer<typeof TagRequest>,
  metadata: CommandMetadata,
): Promise<CommandOutcome<TagState, TagEvent>> {
  return handleCommand(
    store,
    tagStream(name),
    tagDecider,
    { type: 'UpsertTag', tag: { name, description: tag.description ?? null, color: tag.color ?? null }, now: new Date().toISOString() },
    { ...metadata, environment: null },
  );
}

/** Removes a tag from the catalog; resources that carry it keep it in their own `tags`. */
export function deleteTag(store: EventStore, name: string, metadata: CommandMetadata): Promise<CommandOutcome<TagState, TagEvent>> {
  return handleCommand(
    store,
    tagStream(name),
    tagDecider,
    { type: 'DeleteTag', name, now: new Date().toISOString() },
    { ...metadata, environment: null },
  );
}
