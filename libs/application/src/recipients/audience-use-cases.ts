import { AudienceMemberRequestT } from '@notify/contracts';
import {
  audienceDefinitionStream,
  AudienceEvent,
  audienceDecider,
  AudienceState,
  audienceStream,
  fold,
  invalidParams,
  resourceDecider,
  ResourceEvent,
  resourceMissing,
  ResourceState,
} from '@notify/domain';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';
import { inlineAspects } from './aspects';
import { RecipientDeps } from './ports';
import { identifyUsers, UserOutcome } from './user-use-cases';

export type AudienceOutcome = CommandOutcome<AudienceState, AudienceEvent>;

export interface AudienceMemberRef {
  userId: string;
  tenant: string | null;
}

/** Which of the given members an audience holds (AudienceMemberQueries satisfies this). */
export interface AudienceMembershipLookup {
  present(environment: string, audienceKey: string, members: AudienceMemberRef[]): Promise<Set<string>>;
}

/**
 * The audience definition an environment serves from its configuration read model (ConfigResourceQueries
 * satisfies this): where the definition came by promotion or with a branch, the environment's own
 * definition stream is empty (the content is on its commit log), ADR 0170.
 */
export interface AudienceDefinitionLookup {
  audienceDefinition(environment: string, audienceKey: string): Promise<{ type: string } | undefined>;
}

export interface AudienceDeps extends RecipientDeps {
  audienceMembers: AudienceMembershipLookup;
  audienceDefinitions: AudienceDefinitionLookup;
}

type DefinitionDeps = Pick<AudienceDeps, 'store' | 'audienceDefinitions'>;

const keyOf = (m: AudienceMemberRef) => `${m.userId}\u0000${m.tenant ?? ''}`;

/**
 * The type of the audience's latest definition through the management API, if it has one and it
 * is not archived (ADR 0171).
 */
async function definedType(deps: DefinitionDeps, environment: string, audienceKey: string): Promise<string | undefined> {
  const history = await deps.store.readStream(audienceDefinitionStream(environment, audienceKey));
  // Never upserted here: promoted here (or taken by a branch), as the read model says; the
  // promote and archive calls settle that read model before they answer.
  if (history.length === 0) return (await deps.audienceDefinitions.audienceDefinition(environment, audienceKey))?.type;
  const state = fold(resourceDecider, history.map(toDomainEvent) as ResourceEvent[]);
  if (!state.exists || state.archived) return undefined;
  const upserted = [...history].reverse().find((e) => e.type === 'AudienceUpserted');
  const content = (upserted?.data as { content?: { type?: unknown } } | undefined)?.content;
  return typeof content?.type === 'string' ? content.type : 'static';
}

/** Whether the audience was upserted through the management API; a dynamic one takes no members from calls. */
async function audienceDefined(deps: DefinitionDeps, environment: string, audienceKey: string): Promise<boolean> {
  const type = await definedType(deps, environment, audienceKey);
  if (type === 'dynamic')
    throw invalidParams(
      [
        {
          field: 'audience_key',
          message: 'is a dynamic audience: its members follow its segments and cannot be added or removed',
          type: 'dynamic_audience',
        },
      ],
      `The audience ${audienceKey} is dynamic; its members cannot be changed directly`,
    );
  return type !== undefined;
}

/**
 * Whether the audience exists: defined through the management API, or created by a members call
 * with create_audience. From the streams, not the read models, which may lag a write.
 */
export async function audienceExists(deps: DefinitionDeps, environment: string, audienceKey: string): Promise<boolean> {
  if ((await definedType(deps, environment, audienceKey)) !== undefined) return true;
  const history = await deps.store.readStream(audienceStream(environment, audienceKey));
  return fold(audienceDecider, history.map(toDomainEvent) as AudienceEvent[]).exists;
}

async function candidates(deps: AudienceDeps, environment: string, audienceKey: string, refs: AudienceMemberRef[]) {
  const present = await deps.audienceMembers.present(environment, audienceKey, refs);
  return refs.map((m) => ({ ...m, present: present.has(keyOf(m)) }));
}

/**
 * Adds members to a static audience, identifying each inline user first. An audience that does
 * not exist is refused before any user is written, unless the caller asks to create it.
 */
export async function addAudienceMembers(
  deps: AudienceDeps,
  environment: string,
  audienceKey: string,
  members: AudienceMemberRequestT[],
  createAudience: boolean,
  metadata: CommandMetadata,
): Promise<(UserOutcome | AudienceOutcome)[]> {
  const defined = await audienceDefined(deps, environment, audienceKey);
  if (!createAudience && !defined && !(await audienceExists(deps, environment, audienceKey))) throw resourceMissing('audience');
  // Every member's inline channel data and preferences are checked before the first user is
  // written: a bad member refuses the whole call, and nothing is half-written.
  const checkedAt = new Date().toISOString();
  for (const [index, { user }] of members.entries()) {
    if (user.channel_data || user.preferences)
      await inlineAspects(
        deps.channels,
        environment,
        { channel_data: user.channel_data, preferences: user.preferences },
        checkedAt,
        `members.${index}.user.`,
      );
  }
  // One user named twice (with two tenants) is identified with each body in turn.
  const users = members.map(({ user: { id, ...body } }) => ({ id, body }));
  const outcomes: (UserOutcome | AudienceOutcome)[] = await identifyUsers(deps, environment, users, metadata);
  const refs: AudienceMemberRef[] = members.map(({ user, tenant }) => ({ userId: user.id, tenant: tenant ?? null }));
  const now = new Date().toISOString();
  outcomes.push(
    await handleCommand(
      deps.store,
      audienceStream(environment, audienceKey),
      audienceDecider,
      {
        type: 'AddAudienceMembers',
        audienceKey,
        members: await candidates(deps, environment, audienceKey, refs),
        createIfMissing: createAudience,
        defined,
        now,
      },
      metadata,
    ),
  );
  return outcomes;
}

/** Removes members from an audience; only the user ids and tenants of the request count. */
export async function removeAudienceMembers(
  deps: AudienceDeps,
  environment: string,
  audienceKey: string,
  members: AudienceMemberRef[],
  metadata: CommandMetadata,
): Promise<AudienceOutcome> {
  return handleCommand(
    deps.store,
    audienceStream(environment, audienceKey),
    audienceDecider,
    {
      type: 'RemoveAudienceMembers',
      audienceKey,
      members: await candidates(deps, environment, audienceKey, members),
      defined: await audienceDefined(deps, environment, audienceKey),
      now: new Date().toISOString(),
    },
    metadata,
  );
}

/**
 * Archives an audience in every environment where it exists (the reference: "across all
 * environments"): its definition leaves the lists and its members leave (ADR 0171). An audience
 * that exists in none of them is missing, so archiving twice answers 404 the second time.
 */
export async function archiveAudience(
  deps: DefinitionDeps,
  environments: readonly string[],
  audienceKey: string,
  metadata: CommandMetadata,
): Promise<CommandOutcome<AudienceState | ResourceState, AudienceEvent | ResourceEvent>[]> {
  const found: { environment: string; defined: boolean }[] = [];
  for (const environment of environments) {
    const defined = (await definedType(deps, environment, audienceKey)) !== undefined;
    if (defined || (await audienceExists(deps, environment, audienceKey))) found.push({ environment, defined });
  }
  if (found.length === 0) throw resourceMissing('audience');
  const now = new Date().toISOString();
  const outcomes: CommandOutcome<AudienceState | ResourceState, AudienceEvent | ResourceEvent>[] = [];
  for (const { environment, defined } of found) {
    const inEnvironment = { ...metadata, environment };
    if (defined)
      outcomes.push(
        await handleCommand(
          deps.store,
          audienceDefinitionStream(environment, audienceKey),
          resourceDecider,
          { type: 'ArchiveAudience', key: audienceKey, now },
          inEnvironment,
        ),
      );
    outcomes.push(
      await handleCommand(
        deps.store,
        audienceStream(environment, audienceKey),
        audienceDecider,
        { type: 'ArchiveAudience', audienceKey, defined, now },
        inEnvironment,
      ),
    );
  }
  return outcomes;
}
