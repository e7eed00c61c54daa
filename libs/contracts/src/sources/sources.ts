import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { EnvironmentQuery, MgmtPageInfo, MgmtPageQuery, QueryFlag, ResourceKey } from '../config/mgmt';

/**
 * Inbound event sources (ADR 0195): per environment, a source has settings (where the event type
 * and idempotency key are in a payload) and mappings (which event type triggers which workflow,
 * with which recipients and data). Events posted to its ingest endpoint are recorded and mapped.
 */

export const SOURCE_ACTION_TYPES = [
  'workflows_trigger',
  'users_identify',
  'users_delete',
  'objects_set',
  'objects_delete',
  'objects_subscribe',
  'objects_unsubscribe',
  'tenants_set',
  'tenants_delete',
  'audiences_add_member',
  'audiences_remove_member',
] as const;

const Path = z.string().max(500).nullable().optional();

export const SourcePreprocessScript = z.object({ source: z.string(), language: z.enum(['javascript']) });

export const SourceSettingsRequest = z
  .object({
    enforce_verification: z.boolean().optional(),
    event_type_path: Path,
    idempotency_key_path: Path,
    timestamp_path: Path,
    preprocess_script: SourcePreprocessScript.nullable().optional(),
  })
  .loose();

export const SourceMappingRequest = z.object({
  event_type: z.string().min(1).max(255),
  action_type: z.enum(SOURCE_ACTION_TYPES),
  action_parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  active: z.boolean().optional(),
  is_deleted: z.boolean().optional(),
});
export type SourceMappingRequestT = z.infer<typeof SourceMappingRequest>;

export const SourceRequest = z.object({
  name: z.string().min(1).max(255),
  custom_image_url: z.string().max(2048).nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
  preconfigured_provider: z.string().max(255).optional(),
  environment_settings: z
    .record(
      z.string(),
      z.object({ settings: SourceSettingsRequest.optional(), mappings: z.array(SourceMappingRequest).max(200).optional() }),
    )
    .optional(),
  // Read-only fields a client may send back from a GET.
  key: z.unknown().optional(),
  created_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
});
export type SourceRequestT = z.infer<typeof SourceRequest>;

/** Stored settings of a source in one environment (paths are dot-notation into `{ body, headers }`). */
export const SourceSettings = z
  .object({
    enforce_verification: z.boolean(),
    event_type_path: z.string().nullable(),
    idempotency_key_path: z.string().nullable(),
    timestamp_path: z.string().nullable(),
    preprocess_script: SourcePreprocessScript.nullable(),
  })
  .loose();
export type SourceSettingsT = z.infer<typeof SourceSettings>;

export const SourceMapping = z.object({
  event_type: z.string(),
  action_type: z.enum(SOURCE_ACTION_TYPES),
  action_parameters: z.record(z.string(), z.unknown()).nullable(),
  active: z.boolean(),
  is_deleted: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SourceMappingT = z.infer<typeof SourceMapping>;

export const SourceEnvironmentSettings = z
  .object({
    settings: SourceSettings.extend({
      /** The absolute URL events are posted to, and the key they are authenticated with. */
      endpoint: z.string(),
      ingest_key: z.string(),
    }),
    mappings: z.array(SourceMapping),
    updated_at: z.string(),
  })
  .meta({ id: 'SourceEnvironmentSettings' });

export const Source = z
  .object({
    key: z.string(),
    name: z.string(),
    custom_image_url: z.string().nullable(),
    environment_settings: z.record(z.string(), SourceEnvironmentSettings),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Source' });
export type SourceT = z.infer<typeof Source>;

export const SourceRehearseResponse = z
  .object({
    log_id: z.string().nullable(),
    status: z.enum(['ok', 'error']),
    action_logs_count: z.number().int(),
    successful_action_logs_count: z.number().int(),
    failed_action_logs_count: z.number().int(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).nullable(),
    /** What each action would do: the trigger it would send. */
    actions: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({ id: 'SourceRehearseResponse' });

export const SourceLogAction = z.object({
  id: z.string(),
  action_type: z.string(),
  action_parameters: z.record(z.string(), z.unknown()).nullable(),
  action_payload: z.record(z.string(), z.unknown()).nullable(),
  action_result: z.record(z.string(), z.unknown()).nullable(),
  action_status: z.string().nullable(),
  inserted_at: z.string().nullable(),
});
export type SourceLogActionT = z.infer<typeof SourceLogAction>;

export const SourceLog = z
  .object({
    id: z.string(),
    event: z.string(),
    source: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    actions: z.array(SourceLogAction),
    verification_status: z.string().nullable(),
    preprocess_output: z.record(z.string(), z.unknown()).nullable(),
    inserted_at: z.string().nullable(),
  })
  .meta({ id: 'SourceLog' });
export type SourceLogT = z.infer<typeof SourceLog>;

const SourceProviderSummary = z.object({
  key: z.string(),
  version: z.string(),
  provider: z.object({ name: z.string(), description: z.string() }),
});

export const SourceProvider = z
  .object({
    key: z.string(),
    version: z.string(),
    provider: z.object({
      name: z.string(),
      description: z.string(),
      categories: z.array(z.string()),
      website_url: z.string().nullable(),
      webhook_docs_url: z.string(),
    }),
    default_settings: z.object({
      event_type_path: z.string(),
      enforce_verification: z.boolean(),
      idempotency_key_path: z.string().nullable(),
      timestamp_path: z.string().nullable(),
    }),
    default_action_mappings: z.array(
      z.object({ event_type: z.string(), action_type: z.enum(SOURCE_ACTION_TYPES), action_parameters: z.record(z.string(), z.unknown()) }),
    ),
    example_payloads: z.record(z.string(), z.array(z.object({ body: z.record(z.string(), z.unknown()).nullable() }))).nullable(),
  })
  .meta({ id: 'SourceProviderResponse' });
export type SourceProviderT = z.infer<typeof SourceProvider>;

const params = z.object({ key: ResourceKey });
const includeList = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.split(',') : v), z.array(z.enum(values))).optional();

export const sourceRoutes = {
  list: defineRoute({
    operationId: 'listSources',
    method: 'GET',
    path: '/v1/sources',
    summary: 'List sources, with their settings in every environment (or in the one named)',
    tags: ['Sources'],
    auth: 'service',
    scope: 'account',
    rateTier: 4,
    query: z.object({
      environment: z.string().min(1).max(63).optional(),
      include: includeList(['environment_settings']),
      annotate: QueryFlag.optional(),
    }),
    response: z
      .object({
        entries: z.array(
          z.object({
            key: z.string(),
            name: z.string(),
            custom_image_url: z.string().nullable(),
            environment_settings: z.record(z.string(), SourceEnvironmentSettings).optional(),
          }),
        ),
      })
      .meta({ id: 'SourcesResponse' }),
  }),
  get: defineRoute({
    operationId: 'getSource',
    method: 'GET',
    path: '/v1/sources/{key}',
    summary: 'Get a source with its settings and mappings in an environment',
    tags: ['Sources'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery.extend({ annotate: QueryFlag.optional() }),
    response: Source,
  }),
  upsert: defineRoute({
    operationId: 'upsertSource',
    method: 'PUT',
    path: '/v1/sources/{key}',
    summary: 'Create or update a source, with its settings and mappings in an environment',
    tags: ['Sources'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery.extend({ annotate: QueryFlag.optional() }),
    body: z.object({ source: SourceRequest }),
    response: z.object({ source: Source }).meta({ id: 'WrappedSourceResponse' }),
  }),
  status: defineRoute({
    operationId: 'getSourceStatus',
    method: 'GET',
    path: '/v1/sources/{key}/status',
    summary: 'Activity of a source in an environment, and mappings that need action',
    tags: ['Sources'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery,
    response: z
      .object({
        events_count: z.number().int(),
        last_event_received: z.string().nullable(),
        mappings_count: z.number().int(),
        mappings_requiring_commit: z.array(
          z.object({
            resource_key: z.string(),
            action_type: z.enum(['workflows_trigger']),
            event_type: z.string(),
            active: z.boolean(),
            is_deleted: z.boolean(),
            status: z.enum(['deleted', 'updated']),
          }),
        ),
      })
      .meta({ id: 'SourceStatusResponse' }),
  }),
  rehearse: defineRoute({
    operationId: 'rehearseSource',
    method: 'POST',
    path: '/v1/sources/{key}/rehearse',
    summary: 'Run a sample payload through a source and its mappings; nothing is written',
    tags: ['Sources'],
    auth: 'service',
    rateTier: 3,
    params,
    query: EnvironmentQuery,
    body: z.object({
      payload: z.object({ body: z.unknown().optional(), headers: z.record(z.string(), z.unknown()).optional() }).loose(),
    }),
    response: SourceRehearseResponse,
  }),
  events: defineRoute({
    operationId: 'listSourceEvents',
    method: 'GET',
    path: '/v1/sources/{key}/events',
    summary: 'The event types a source has received in an environment, with when each was last received',
    tags: ['Sources'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery,
    response: z
      .object({ entries: z.array(z.object({ event: z.string(), last_received_at: z.string().nullable() })) })
      .meta({ id: 'SourceEventsResponse' }),
  }),
  logs: defineRoute({
    operationId: 'listSourceLogs',
    method: 'GET',
    path: '/v1/sources/{key}/logs',
    summary: 'Events a source received in an environment and the actions they ran, newest first',
    tags: ['Sources'],
    auth: 'service',
    rateTier: 4,
    params,
    query: EnvironmentQuery.extend(MgmtPageQuery.shape).extend({
      date: z.iso.date().optional(),
      starting_at: z.iso.datetime({ offset: true }).optional(),
      ending_at: z.iso.datetime({ offset: true }).optional(),
      event: z.string().max(255).optional(),
      id: z.string().max(64).optional(),
    }),
    response: z.object({ entries: z.array(SourceLog), page_info: MgmtPageInfo }).meta({ id: 'SourceLogsResponse' }),
  }),
  providers: defineRoute({
    operationId: 'listSourceProviders',
    method: 'GET',
    path: '/v1/source_providers',
    summary: 'The source templates this service offers',
    tags: ['Sources'],
    auth: 'service',
    scope: 'account',
    rateTier: 4,
    response: z.object({ entries: z.array(SourceProviderSummary) }).meta({ id: 'SourceProvidersResponse' }),
  }),
  provider: defineRoute({
    operationId: 'getSourceProvider',
    method: 'GET',
    path: '/v1/source_providers/{key}',
    summary: 'A source template: its default settings and mappings',
    tags: ['Sources'],
    auth: 'service',
    scope: 'account',
    rateTier: 4,
    params: z.object({ key: z.string().min(1).max(255) }),
    query: z.object({
      include: includeList(['branding', 'default_action_mappings', 'example_payloads', 'preprocessing_script', 'static_fields']),
    }),
    response: SourceProvider,
  }),
  replay: defineRoute({
    operationId: 'replaySourceEvent',
    method: 'POST',
    path: '/v1/sources/{key}/logs/{log_id}/replay',
    summary: "Run a recorded event again through the source's current settings and mappings, as a new log (an addition to the reference)",
    tags: ['Sources'],
    auth: 'service',
    rateTier: 3,
    params: z.object({ key: ResourceKey, log_id: z.uuid() }),
    query: EnvironmentQuery,
    status: 202,
    response: z.object({ log_id: z.string(), status: z.enum(['accepted']), replay_of: z.string() }).meta({ id: 'SourceReplayResponse' }),
  }),
  ingest: defineRoute({
    operationId: 'ingestSourceEvent',
    method: 'POST',
    path: '/v1/ingest/{environment}/{key}',
    summary: "Receive an event for a source: authenticated by the source's ingest key, recorded, then mapped to actions",
    tags: ['Sources'],
    // The source's own key authenticates (ADR 0195); the handler checks it before anything is read or written.
    auth: 'none',
    rateTier: 5,
    params: z.object({ environment: z.string().min(1).max(63), key: ResourceKey }),
    body: z.record(z.string(), z.unknown()),
    status: 202,
    response: z.object({ log_id: z.string(), status: z.enum(['accepted', 'duplicate']) }),
  }),
};

// Events. The source's configuration is on `source-{environment}-{key}`; each received event on
// its own stream `source_log-{environment}-{log id}` (a repeat of an idempotency key is the same stream).

export const SourceUpserted = defineEvent(
  'SourceUpserted',
  1,
  z.object({
    key: z.string(),
    name: z.string(),
    custom_image_url: z.string().nullable(),
    settings: SourceSettings,
    mappings: z.array(SourceMapping),
    upserted_at: z.string(),
  }),
);

/** The trigger (or other action) a mapping produced from an event; the payload it would send. */
export const PlannedSourceAction = z.object({
  id: z.string(),
  mapping_index: z.number().int(),
  action_type: z.string(),
  action_parameters: z.record(z.string(), z.unknown()).nullable(),
  action_payload: z.record(z.string(), z.unknown()).nullable(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type PlannedSourceActionT = z.infer<typeof PlannedSourceAction>;

export const SourceEventReceived = defineEvent(
  'SourceEventReceived',
  1,
  z.object({
    log_id: z.uuid(),
    source_key: z.string(),
    event: z.string(),
    idempotency_key: z.string().nullable(),
    /** What was posted: the JSON body and the request headers kept (content type and user agent only). */
    payload: z.object({ body: z.unknown(), headers: z.record(z.string(), z.string()) }),
    actions: z.array(PlannedSourceAction),
    /** The first user the actions address: the subject of the payload's personal data. */
    subject: z.string().nullable(),
    received_at: z.string(),
    /** Set when the event is a replay (ADR 0246): the log whose payload was run again through today's mappings. */
    replay_of: z.uuid().optional(),
  }),
  { personal: { subject: (d) => d.subject, fields: ['payload', 'actions'] } },
);

/** What each planned action did once run (a trigger's workflow_run_id, or why it failed). */
export const SourceActionsRan = defineEvent(
  'SourceActionsRan',
  1,
  z.object({
    log_id: z.uuid(),
    source_key: z.string(),
    results: z.array(z.object({ id: z.string(), status: z.enum(['ok', 'error']), result: z.record(z.string(), z.unknown()).nullable() })),
    ran_at: z.string(),
  }),
);

export const sourceEventContracts = [SourceUpserted, SourceEventReceived, SourceActionsRan];
