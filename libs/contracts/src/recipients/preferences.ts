import { z } from 'zod';
import { Condition } from '../conditions';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { RecipientId } from './common';
import { CollectionName, RecipientRef } from './refs';

const WithConditions = z.strictObject({ conditions: z.array(Condition).max(100) });
const Toggle = z.union([z.boolean(), WithConditions]);

export const PREFERENCE_CHANNEL_TYPES = ['email', 'sms', 'push', 'chat', 'http', 'in_app_feed'] as const;
export const PreferenceSetChannelTypes = z
  .strictObject(
    Object.fromEntries(PREFERENCE_CHANNEL_TYPES.map((t) => [t, Toggle.optional()])) as Record<
      (typeof PREFERENCE_CHANNEL_TYPES)[number],
      z.ZodOptional<typeof Toggle>
    >,
  )
  .meta({ id: 'PreferenceSetChannelTypes' });
export const PreferenceSetChannels = z.record(z.string().min(1).max(255), Toggle).meta({ id: 'PreferenceSetChannels' });

export const WorkflowCategorySetting = z
  .union([
    z.boolean(),
    z.strictObject({
      channel_types: PreferenceSetChannelTypes.nullable().optional(),
      channels: PreferenceSetChannels.nullable().optional(),
      conditions: z.array(Condition).max(100).nullable().optional(),
    }),
  ])
  .meta({ id: 'PreferenceSetWorkflowCategorySetting' });
export type WorkflowCategorySettingT = z.infer<typeof WorkflowCategorySetting>;

const SettingsByKey = z.record(z.string().min(1).max(255), WorkflowCategorySetting);

/** The preference fields shared by requests, stored sets and responses. */
const preferenceFields = {
  categories: SettingsByKey.nullable().optional(),
  channel_types: PreferenceSetChannelTypes.nullable().optional(),
  channels: PreferenceSetChannels.nullable().optional(),
  commercial_subscribed: z.union([z.boolean(), WithConditions]).nullable().optional(),
  workflows: SettingsByKey.nullable().optional(),
};

export const PersistenceStrategy = z.enum(['merge', 'replace']);

/** The spec lists every field of a preference set: anything else is refused. */
export const PreferenceSetRequest = z
  .strictObject({ __persistence_strategy__: PersistenceStrategy.optional(), ...preferenceFields })
  .meta({ id: 'PreferenceSetRequest' });
export type PreferenceSetRequestT = z.infer<typeof PreferenceSetRequest>;

/** A stored preference set: every field present, null when unset. */
export const PreferenceSetData = z.object({
  categories: SettingsByKey.nullable(),
  channel_types: PreferenceSetChannelTypes.nullable(),
  channels: PreferenceSetChannels.nullable(),
  commercial_subscribed: z.union([z.boolean(), WithConditions]).nullable(),
  workflows: SettingsByKey.nullable(),
});
export type PreferenceSetDataT = z.infer<typeof PreferenceSetData>;

export const PreferenceSet = PreferenceSetData.extend({ id: z.string() }).meta({ id: 'PreferenceSet' });
export type PreferenceSetT = z.infer<typeof PreferenceSet>;

/** Preference sets given inline with identify, set object, set tenant: keyed by set id. */
export const InlinePreferenceSetRequest = z.record(RecipientId, PreferenceSetRequest);

export const PreferenceSetId = RecipientId;

// Events: recorded on the recipient's own stream (user or object).

export const PreferenceSetUpdated = defineEvent(
  'PreferenceSetUpdated',
  1,
  z.object({
    recipient: RecipientRef,
    preference_set_id: z.string(),
    /** The whole set after the update (merge or replace already applied). */
    preferences: PreferenceSetData,
    updated_at: z.string(),
  }),
);

export const PreferenceSetDeleted = defineEvent(
  'PreferenceSetDeleted',
  1,
  z.object({ recipient: RecipientRef, preference_set_id: z.string(), deleted_at: z.string() }),
);

export const preferenceEventContracts = [PreferenceSetUpdated, PreferenceSetDeleted] as const;

// Routes

const UserPrefPath = z.object({ user_id: RecipientId, id: PreferenceSetId });
const ObjectPrefPath = z.object({ collection: CollectionName, object_id: RecipientId, id: PreferenceSetId });

export const listUserPreferencesRoute = defineRoute({
  operationId: 'listUserPreferenceSets',
  method: 'GET',
  path: '/v1/users/{user_id}/preferences',
  summary: "List a user's preference sets",
  tags: ['Preferences'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 4,
  params: z.object({ user_id: RecipientId }),
  response: z.array(PreferenceSet),
});

export const getUserPreferencesRoute = defineRoute({
  operationId: 'getUserPreferenceSet',
  method: 'GET',
  path: '/v1/users/{user_id}/preferences/{id}',
  summary: "Get a user's preference set; with `tenant`, resolved over that tenant's defaults",
  tags: ['Preferences'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 4,
  params: UserPrefPath,
  query: z.object({ tenant: RecipientId.optional() }),
  response: PreferenceSet,
});

export const setUserPreferencesRoute = defineRoute({
  operationId: 'updateUserPreferenceSet',
  method: 'PUT',
  path: '/v1/users/{user_id}/preferences/{id}',
  summary: "Set a user's preference set (replace by default, or merge)",
  tags: ['Preferences'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 3,
  params: UserPrefPath,
  body: PreferenceSetRequest,
  response: PreferenceSet,
});

export const deleteUserPreferencesRoute = defineRoute({
  operationId: 'deleteUserPreferenceSet',
  method: 'DELETE',
  path: '/v1/users/{user_id}/preferences/{id}',
  summary: "Delete a user's preference set",
  tags: ['Preferences'],
  auth: 'public',
  userScope: { params: ['user_id'] },
  rateTier: 3,
  params: UserPrefPath,
  response: null,
});

export const listObjectPreferencesRoute = defineRoute({
  operationId: 'listObjectPreferenceSets',
  method: 'GET',
  path: '/v1/objects/{collection}/{object_id}/preferences',
  summary: "List an object's preference sets",
  tags: ['Preferences'],
  auth: 'secret',
  rateTier: 4,
  params: z.object({ collection: CollectionName, object_id: RecipientId }),
  response: z.array(PreferenceSet),
});

export const getObjectPreferencesRoute = defineRoute({
  operationId: 'getObjectPreferenceSet',
  method: 'GET',
  path: '/v1/objects/{collection}/{object_id}/preferences/{id}',
  summary: "Get an object's preference set",
  tags: ['Preferences'],
  auth: 'secret',
  rateTier: 4,
  params: ObjectPrefPath,
  query: z.object({ tenant: RecipientId.optional() }),
  response: PreferenceSet,
});

export const setObjectPreferencesRoute = defineRoute({
  operationId: 'updateObjectPreferenceSet',
  method: 'PUT',
  path: '/v1/objects/{collection}/{object_id}/preferences/{id}',
  summary: "Set an object's preference set (replace by default, or merge)",
  tags: ['Preferences'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectPrefPath,
  body: PreferenceSetRequest,
  response: PreferenceSet,
});

export const deleteObjectPreferencesRoute = defineRoute({
  operationId: 'deleteObjectPreferenceSet',
  method: 'DELETE',
  path: '/v1/objects/{collection}/{object_id}/preferences/{id}',
  summary: "Delete an object's preference set",
  tags: ['Preferences'],
  auth: 'secret',
  rateTier: 3,
  params: ObjectPrefPath,
  response: null,
});

// Granular updates of one part of a preference set (the reference marks them deprecated): each
// merges into the stored set, so the rest of it is kept, and answers the whole set.

const Subscribed = z.strictObject({ subscribed: z.boolean() });
/**
 * A setting object. `subscribed` is refused in it (given alone, it is the other shape), but it
 * is declared here rather than left to the unknown-key check, which zod prefers to a wrong type:
 * so `{"subscribed": "yes"}` is answered with what `subscribed` takes, and `subscribed` beside
 * setting fields with why it is refused.
 */
const SettingObject = z
  .strictObject({
    subscribed: z.boolean().optional().describe('Not allowed here: `{"subscribed": true|false}` is sent alone'),
    channel_types: PreferenceSetChannelTypes.nullable().optional(),
    channels: PreferenceSetChannels.nullable().optional(),
    conditions: z.array(Condition).max(100).nullable().optional(),
  })
  .superRefine((setting, ctx) => {
    if (setting.subscribed !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['subscribed'],
        message: 'is given alone ({"subscribed": true|false}), not with other settings',
      });
  });
/** One workflow's or category's setting: `{subscribed}`, or the setting object. */
export const GranularSettingBody = z.union([Subscribed, SettingObject]);
/** One channel type's setting: `{subscribed}`, or `{conditions}`. */
export const GranularToggleBody = z.union([Subscribed, WithConditions]);
export const PreferenceChannelTypeName = z.enum(PREFERENCE_CHANNEL_TYPES);

export type GranularPart =
  | { field: 'workflows' | 'categories'; key: string; body: z.infer<typeof GranularSettingBody> }
  | { field: 'channel_types'; key: (typeof PREFERENCE_CHANNEL_TYPES)[number]; body: z.infer<typeof GranularToggleBody> }
  | { field: 'workflows' | 'categories'; all: z.infer<typeof SettingsByKey> }
  | { field: 'channel_types'; all: z.infer<typeof PreferenceSetChannelTypes> };

const granular = <P extends z.ZodObject, B extends z.ZodType>(
  who: 'user' | 'object',
  operationId: string,
  suffix: string,
  summary: string,
  params: P,
  body: B,
) =>
  defineRoute({
    operationId,
    method: 'PUT',
    path: `${who === 'user' ? '/v1/users/{user_id}' : '/v1/objects/{collection}/{object_id}'}/preferences/{id}/${suffix}`,
    summary,
    tags: ['Preferences'],
    auth: who === 'user' ? 'public' : 'secret',
    ...(who === 'user' ? { userScope: { params: ['user_id'] } } : {}),
    rateTier: 3,
    params,
    body,
    response: PreferenceSet,
  });

const KeyPath = z.object({ key: z.string().min(1).max(255) });
const TypePath = z.object({ type: PreferenceChannelTypeName });

export const granularPreferenceRoutes = {
  user: {
    workflows: granular(
      'user',
      'updateUserPreferenceWorkflows',
      'workflows',
      "Merge workflow settings into a user's preference set",
      UserPrefPath,
      z.strictObject({ workflows: SettingsByKey }),
    ),
    workflow: granular(
      'user',
      'updateUserPreferenceWorkflow',
      'workflows/{key}',
      "Set one workflow in a user's preference set",
      UserPrefPath.extend(KeyPath.shape),
      GranularSettingBody,
    ),
    categories: granular(
      'user',
      'updateUserPreferenceCategories',
      'categories',
      "Merge category settings into a user's preference set",
      UserPrefPath,
      z.strictObject({ categories: SettingsByKey }),
    ),
    category: granular(
      'user',
      'updateUserPreferenceCategory',
      'categories/{key}',
      "Set one category in a user's preference set",
      UserPrefPath.extend(KeyPath.shape),
      GranularSettingBody,
    ),
    channelTypes: granular(
      'user',
      'updateUserPreferenceChannelTypes',
      'channel_types',
      "Merge channel type settings into a user's preference set",
      UserPrefPath,
      z.strictObject({ channel_types: PreferenceSetChannelTypes }),
    ),
    channelType: granular(
      'user',
      'updateUserPreferenceChannelType',
      'channel_types/{type}',
      "Set one channel type in a user's preference set",
      UserPrefPath.extend(TypePath.shape),
      GranularToggleBody,
    ),
  },
  object: {
    workflows: granular(
      'object',
      'updateObjectPreferenceWorkflows',
      'workflows',
      "Merge workflow settings into an object's preference set",
      ObjectPrefPath,
      z.strictObject({ workflows: SettingsByKey }),
    ),
    workflow: granular(
      'object',
      'updateObjectPreferenceWorkflow',
      'workflows/{key}',
      "Set one workflow in an object's preference set",
      ObjectPrefPath.extend(KeyPath.shape),
      GranularSettingBody,
    ),
    categories: granular(
      'object',
      'updateObjectPreferenceCategories',
      'categories',
      "Merge category settings into an object's preference set",
      ObjectPrefPath,
      z.strictObject({ categories: SettingsByKey }),
    ),
    category: granular(
      'object',
      'updateObjectPreferenceCategory',
      'categories/{key}',
      "Set one category in an object's preference set",
      ObjectPrefPath.extend(KeyPath.shape),
      GranularSettingBody,
    ),
    channelTypes: granular(
      'object',
      'updateObjectPreferenceChannelTypes',
      'channel_types',
      "Merge channel type settings into an object's preference set",
      ObjectPrefPath,
      z.strictObject({ channel_types: PreferenceSetChannelTypes }),
    ),
    channelType: granular(
      'object',
      'updateObjectPreferenceChannelType',
      'channel_types/{type}',
      "Set one channel type in an object's preference set",
      ObjectPrefPath.extend(TypePath.shape),
      GranularToggleBody,
    ),
  },
};
