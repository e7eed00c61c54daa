import { IdentifyUserBodyT } from '@notify/contracts';
import { AspectCommand, fold, UserEvent, userDecider, UserState, userStream } from '@notify/domain';
import { WrongExpectedRevisionError } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand, handleCommands, toDomainEvent } from '../handle-command';
import { checkItemSchema, ItemSchemaLookup } from '../config/item-schemas';
import { ErasureKeyStore, erasureSubject } from '../erasure/erasure-keys';
import { inlineAspects } from './aspects';
import { eventIdsFor } from './event-ids';
import { Idempotency, RecipientDeps } from './ports';

export type UserOutcome = CommandOutcome<UserState, UserEvent>;

/** Splits an identify body into properties and inline aspects. */
export function identifyProperties(body: IdentifyUserBodyT | Record<string, unknown>): {
  properties: Record<string, unknown>;
  inline: Pick<IdentifyUserBodyT, 'channel_data' | 'preferences'>;
} {
  const { channel_data, preferences, ...properties } = body as IdentifyUserBodyT;
  return { properties, inline: { channel_data, preferences } };
}

export async function identifyUser(
  deps: RecipientDeps,
  environment: string,
  userId: string,
  body: IdentifyUserBodyT | Record<string, unknown>,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<UserOutcome> {
  const now = new Date().toISOString();
  const { properties, inline } = identifyProperties(body);
  await checkItemSchema(deps.itemSchemas, environment, 'user', null, properties);
  const aspects = await inlineAspects(deps.channels, environment, inline, now);
  const stream = userStream(environment, userId);
  return handleCommand(deps.store, stream, userDecider, { type: 'IdentifyUser', userId, properties, aspects, now }, metadata, {
    eventId: eventIdsFor(options.seed, stream),
  });
}

/**
 * Identifies many users in one round (handleCommands): what adding a page of audience members
 * with inline users does. Each user's outcome is what `identifyUser` would answer.
 */
export async function identifyUsers(
  deps: RecipientDeps,
  environment: string,
  users: readonly { id: string; body: IdentifyUserBodyT | Record<string, unknown> }[],
  metadata: CommandMetadata,
): Promise<UserOutcome[]> {
  const now = new Date().toISOString();
  // One read of the users' item schema for the whole round; every user is checked before any is written.
  let declared: ReturnType<ItemSchemaLookup['propertiesOf']> | undefined;
  const schemas: ItemSchemaLookup | undefined = deps.itemSchemas && {
    propertiesOf: (env, type, item) => (declared ??= deps.itemSchemas!.propertiesOf(env, type, item)),
  };
  const commands = [];
  for (const { id, body } of users) {
    const { properties, inline } = identifyProperties(body);
    await checkItemSchema(schemas, environment, 'user', null, properties);
    const aspects = await inlineAspects(deps.channels, environment, inline, now);
    commands.push({
      streamId: userStream(environment, id),
      command: { type: 'IdentifyUser' as const, userId: id, properties, aspects, now },
    });
  }
  return handleCommands(deps.store, userDecider, commands, metadata);
}

/**
 * Deletes the user (if they exist) and erases their personal data: UserErased with the reason.
 * A caller that answers the erasure destroys the key at once ({@link eraseUserAndKey}); the
 * erasure reactor destroys it for every UserErased in any case (bulk deletes).
 */
export async function eraseUser(
  deps: RecipientDeps,
  environment: string,
  userId: string,
  reason: string | null,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<UserOutcome> {
  const stream = userStream(environment, userId);
  return handleCommand(deps.store, stream, userDecider, { type: 'EraseUser', userId, reason, now: new Date().toISOString() }, metadata, {
    eventId: eventIdsFor(options.seed, stream),
  });
}

/**
 * {@link eraseUser}, then the user's key destroyed at once (crypto-shredding, ADR 0180), so that
 * their personal fields in the log read as erased by the time the caller answers: what every
 * erasure that answers someone does (the API's deletes, the CLI, a destination's delete). The key
 * is destroyed even when nothing new was erased (a retry after a stop in between); destroying a
 * destroyed key changes nothing.
 */
export async function eraseUserAndKey(
  deps: RecipientDeps,
  keys: Pick<ErasureKeyStore, 'destroy'>,
  environment: string,
  userId: string,
  reason: string | null,
  metadata: CommandMetadata,
): Promise<UserOutcome> {
  const outcome = await eraseUser(deps, environment, userId, reason, metadata);
  await keys.destroy(erasureSubject(environment, userId));
  return outcome;
}

export async function updateUserAspects(
  deps: RecipientDeps,
  environment: string,
  userId: string,
  commands: AspectCommand[],
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<UserOutcome> {
  const stream = userStream(environment, userId);
  return handleCommand(
    deps.store,
    stream,
    userDecider,
    { type: 'UpdateUserAspects', userId, commands, now: new Date().toISOString() },
    metadata,
    {
      eventId: eventIdsFor(options.seed, stream),
    },
  );
}

/**
 * Merges `fromUserId` into `userId`: UserMerged on the target (what moved), then UserDeleted on
 * the source. The ids derive from the source's revision, so retrying a merge that stopped
 * between the two appends finishes it instead of recording it twice. The source is deleted only
 * at the revision that was merged: a write to it in between is merged too, on another round.
 */
export async function mergeUser(
  deps: RecipientDeps,
  environment: string,
  userId: string,
  fromUserId: string,
  metadata: CommandMetadata,
): Promise<UserOutcome[]> {
  const sourceStream = userStream(environment, fromUserId);
  const targetStream = userStream(environment, userId);
  const outcomes: UserOutcome[] = [];
  for (let round = 1; ; round++) {
    const history = fromUserId === userId ? [] : await deps.store.readStream(sourceStream);
    const source = fold(userDecider, history.map(toDomainEvent) as UserEvent[]);
    const revision = history.length ? history[history.length - 1].revision : 'no_stream';
    const seed = `merge:${fromUserId}:${revision === 'no_stream' ? 'none' : revision}`;
    const now = new Date().toISOString();
    outcomes.push(
      await handleCommand(
        deps.store,
        targetStream,
        userDecider,
        { type: 'MergeUser', userId, fromUserId, from: { exists: source.exists, aspects: source.aspects }, now },
        metadata,
        {
          eventId: eventIdsFor(seed, targetStream),
        },
      ),
    );
    try {
      const deleted = await handleCommand(
        deps.store,
        sourceStream,
        userDecider,
        { type: 'DeleteUser', userId: fromUserId, now },
        metadata,
        {
          eventId: eventIdsFor(seed, sourceStream),
          onlyAtRevision: revision,
        },
      );
      return [...outcomes, deleted];
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || round >= 5) throw error;
    }
  }
}
