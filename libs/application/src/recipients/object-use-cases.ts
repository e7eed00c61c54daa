import { RecipientRefT, RecipientRequestT, SetObjectBodyT } from '@notify/contracts';
import { AspectCommand, ObjectEvent, objectDecider, ObjectState, objectStream } from '@notify/domain';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { checkItemSchema } from '../config/item-schemas';
import { inlineAspects } from './aspects';
import { eventIdsFor } from './event-ids';
import { Idempotency, RecipientDeps } from './ports';
import { identifyUser, UserOutcome } from './user-use-cases';

export type ObjectOutcome = CommandOutcome<ObjectState, ObjectEvent>;

export async function setObject(
  deps: RecipientDeps,
  environment: string,
  collection: string,
  objectId: string,
  body: SetObjectBodyT | Record<string, unknown>,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<ObjectOutcome> {
  const now = new Date().toISOString();
  const { channel_data, preferences, ...properties } = body as SetObjectBodyT;
  await checkItemSchema(deps.itemSchemas, environment, 'object', collection, properties);
  const aspects = await inlineAspects(deps.channels, environment, { channel_data, preferences }, now);
  const stream = objectStream(environment, collection, objectId);
  return handleCommand(deps.store, stream, objectDecider, { type: 'SetObject', collection, objectId, properties, aspects, now }, metadata, {
    eventId: eventIdsFor(options.seed, stream),
  });
}

export async function deleteObject(
  deps: RecipientDeps,
  environment: string,
  collection: string,
  objectId: string,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<ObjectOutcome> {
  const stream = objectStream(environment, collection, objectId);
  return handleCommand(
    deps.store,
    stream,
    objectDecider,
    { type: 'DeleteObject', collection, objectId, now: new Date().toISOString() },
    metadata,
    {
      eventId: eventIdsFor(options.seed, stream),
    },
  );
}

export async function updateObjectAspects(
  deps: RecipientDeps,
  environment: string,
  collection: string,
  objectId: string,
  commands: AspectCommand[],
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<ObjectOutcome> {
  const stream = objectStream(environment, collection, objectId);
  return handleCommand(
    deps.store,
    stream,
    objectDecider,
    { type: 'UpdateObjectAspects', collection, objectId, commands, now: new Date().toISOString() },
    metadata,
    {
      eventId: eventIdsFor(options.seed, stream),
    },
  );
}

const keyOf = (ref: RecipientRefT) => (ref.type === 'user' ? `user||${ref.id}` : `object|${ref.collection}|${ref.id}`);

/**
 * Subscribes recipients to an object. Inline recipients are identified (users) or set
 * (objects) first; a bare id makes sure the user exists. Re-subscribing updates properties.
 */
export async function addSubscriptions(
  deps: RecipientDeps,
  environment: string,
  collection: string,
  objectId: string,
  recipients: RecipientRequestT[],
  properties: Record<string, unknown> | null | undefined,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<{ outcomes: (UserOutcome | ObjectOutcome)[]; recipients: RecipientRefT[] }> {
  const outcomes: (UserOutcome | ObjectOutcome)[] = [];
  const refs = new Map<string, RecipientRefT>();
  for (const [index, recipient] of recipients.entries()) {
    const seed = options.seed && `${options.seed}:r${index}`;
    let ref: RecipientRefT;
    if (typeof recipient === 'string') {
      ref = { type: 'user', id: recipient };
      outcomes.push(await identifyUser(deps, environment, recipient, {}, metadata, { seed }));
    } else if ('collection' in recipient && typeof recipient.collection === 'string') {
      const { id, collection: recipientCollection, ...body } = recipient;
      ref = { type: 'object', collection: recipientCollection, id };
      outcomes.push(await setObject(deps, environment, recipientCollection, id, body, metadata, { seed }));
    } else {
      const { id, ...body } = recipient;
      ref = { type: 'user', id };
      outcomes.push(await identifyUser(deps, environment, id, body, metadata, { seed }));
    }
    refs.set(keyOf(ref), ref);
  }
  const subscribers = [...refs.values()];
  const current = await deps.subscriptions.current(environment, collection, objectId, subscribers);
  const stream = objectStream(environment, collection, objectId);
  outcomes.push(
    await handleCommand(
      deps.store,
      stream,
      objectDecider,
      {
        type: 'AddSubscriptions',
        collection,
        objectId,
        subscribers: subscribers.map((recipient) => ({ recipient, current: current.get(keyOf(recipient)) ?? null })),
        properties,
        now: new Date().toISOString(),
      },
      metadata,
      { eventId: eventIdsFor(options.seed, stream) },
    ),
  );
  return { outcomes, recipients: subscribers };
}

export async function removeSubscriptions(
  deps: RecipientDeps,
  environment: string,
  collection: string,
  objectId: string,
  recipients: RecipientRefT[],
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<ObjectOutcome> {
  const unique = [...new Map(recipients.map((r) => [keyOf(r), r])).values()];
  const current = await deps.subscriptions.current(environment, collection, objectId, unique);
  const stream = objectStream(environment, collection, objectId);
  return handleCommand(
    deps.store,
    stream,
    objectDecider,
    {
      type: 'RemoveSubscriptions',
      collection,
      objectId,
      subscribers: unique.map((recipient) => ({ recipient, current: current.get(keyOf(recipient)) ?? null })),
      now: new Date().toISOString(),
    },
    metadata,
    { eventId: eventIdsFor(options.seed, stream) },
  );
}
