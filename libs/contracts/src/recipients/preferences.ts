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
