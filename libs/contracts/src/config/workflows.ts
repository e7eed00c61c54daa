import { GoalAttachment } from '../goals/goals';
import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { ConditionGroup } from './conditions';
import { jsonSchemaProblems } from './json-schema';
import {
  acceptingCliFiles,
  Annotation,
  ArchivedFilter,
  ArchiveResult,
  EnvironmentQuery,
  MgmtPageQuery,
  mgmtListOf,
  QueryFlag,
  ReadOptions,
  readOnlyEcho,
  ResourceError,
  ResourceKey,
  WriteOptions,
} from './mgmt';
import { uniqueStepRefs, WorkflowStep } from './workflow-steps';

export const TriggerFrequency = z.enum(['every_trigger', 'once_per_recipient', 'once_per_recipient_per_tenant']);

const Label = z.string().min(1).max(255);

/** What a client sends to create or replace a workflow. Read-only fields a pulled workflow carries are accepted and ignored. */
export const WorkflowRequest = z
  .strictObject({
    name: z.string().min(1, 'is required').max(255, 'must be at most 255 characters'),
    description: z.string().max(280, 'must be at most 280 characters').nullable().optional(),
    categories: z.array(Label).max(50).optional(),
    tags: z.array(Label).max(50).optional(),
    conditions: ConditionGroup.nullable().optional(),
    settings: z.strictObject({ is_commercial: z.boolean().optional(), override_preferences: z.boolean().optional() }).optional(),
    steps: z.array(WorkflowStep).max(100, 'at most 100 top-level steps'),
    trigger_data_json_schema: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .superRefine((schema, ctx) => {
        if (!schema) return;
        for (const problem of jsonSchemaProblems(schema))
          ctx.addIssue({ code: 'custom', message: `is not a valid JSON Schema: ${problem}` });
      }),
    trigger_frequency: TriggerFrequency.optional(),
    /** The goal whose conversions this workflow's runs count toward (ADR 0196). */
    goal_attachment: GoalAttachment.nullable().optional(),
    key: z.string().optional(),
    active: z.unknown().optional(),
    ...readOnlyEcho,
  })
  .superRefine(uniqueStepRefs('workflow'));
export type WorkflowRequestT = z.infer<typeof WorkflowRequest>;

/** The fields of a workflow that are its data (what `sha` hashes and commits carry). */
export const WORKFLOW_DATA_FIELDS = [
  'name',
  'description',
  'categories',
  'tags',
  'conditions',
  'settings',
  'steps',
  'trigger_data_json_schema',
  'trigger_frequency',
  'goal_attachment',
] as const;

export const Workflow = z
  .object({
    key: z.string(),
    name: z.string(),
    /** Optional fields left unset are absent, never null (ADR 0119). */
    description: z.string().optional(),
    categories: z.array(z.string()),
    tags: z.array(z.string()),
    conditions: z.record(z.string(), z.unknown()).optional(),
    settings: z.object({ is_commercial: z.boolean(), override_preferences: z.boolean() }),
    steps: z.array(z.record(z.string(), z.unknown())),
    trigger_data_json_schema: z.record(z.string(), z.unknown()).optional(),
    trigger_frequency: TriggerFrequency,
    goal_attachment: GoalAttachment.optional(),
    active: z.boolean(),
    valid: z.boolean(),
    /** Present when valid is false: why the workflow cannot be activated. */
    errors: z.array(ResourceError).optional(),
    environment: z.string(),
    sha: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    /** Only on an archived workflow, listed with `archived=include|only` (ADR 0225). */
    deleted_at: z.string().optional(),
    __annotation: Annotation.optional(),
  })
  .meta({ id: 'Workflow' });
export type WorkflowT = z.infer<typeof Workflow>;

const WorkflowPath = z.object({ workflow_key: ResourceKey });
const WrappedWorkflow = z.object({ workflow: Workflow }).meta({ id: 'WrappedWorkflow' });

// Events

const UpsertedData = z.object({
  key: z.string(),
  /** The workflow's data as stored (request normalised, read-only fields dropped). */
  content: z.record(z.string(), z.unknown()),
  sha: z.string(),
  valid: z.boolean(),
  errors: z.array(ResourceError),
  upserted_at: z.string(),
});
export type ResourceUpsertedData = z.infer<typeof UpsertedData>;

/** A resource upserted: the same data shape for every versioned resource, one event type per resource type. */
export const resourceUpsertedData = UpsertedData;

export const WorkflowUpserted = defineEvent('WorkflowUpserted', 1, UpsertedData);
export const WorkflowActivated = defineEvent('WorkflowActivated', 1, z.object({ key: z.string(), activated_at: z.string() }));
export const WorkflowDeactivated = defineEvent('WorkflowDeactivated', 1, z.object({ key: z.string(), deactivated_at: z.string() }));

/** Archived in one environment (ADR 0225): it leaves the lists and cannot be triggered; upserting the key again starts anew. */
export const WorkflowArchived = defineEvent('WorkflowArchived', 1, z.object({ key: z.string(), archived_at: z.string() }));

export const workflowEventContracts = [WorkflowUpserted, WorkflowActivated, WorkflowDeactivated, WorkflowArchived] as const;

// Routes

export const listWorkflowsRoute = defineRoute({
  operationId: 'listWorkflows',
  method: 'GET',
  path: '/v1/workflows',
  summary: 'List the workflows of an environment, by key',
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 4,
  query: ReadOptions.extend(MgmtPageQuery.shape).extend({
    /** Not in the reference: only workflows carrying this tag (see the tag catalog, `/v1/tags`). */
    tag: z.string().min(1).max(255).optional(),
    archived: ArchivedFilter.optional(),
  }),
  response: mgmtListOf(Workflow).meta({ id: 'ListWorkflowsResponse' }),
});

export const getWorkflowRoute = defineRoute({
  operationId: 'getWorkflow',
  method: 'GET',
  path: '/v1/workflows/{workflow_key}',
  summary: 'Get a workflow; its latest version unless hide_uncommitted_changes is set',
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 4,
  params: WorkflowPath,
  query: ReadOptions,
  response: Workflow,
});

export const upsertWorkflowRoute = defineRoute({
  operationId: 'upsertWorkflow',
  method: 'PUT',
  path: '/v1/workflows/{workflow_key}',
  summary: 'Create or replace a workflow; one that fails validation is saved with valid: false',
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 3,
  params: WorkflowPath,
  query: WriteOptions,
  body: z.object({ workflow: acceptingCliFiles(WorkflowRequest) }),
  response: WrappedWorkflow,
});

export const validateWorkflowRoute = defineRoute({
  operationId: 'validateWorkflow',
  method: 'PUT',
  path: '/v1/workflows/{workflow_key}/validate',
  summary: 'Validate a workflow without saving it: 200 when valid, 422 listing every problem otherwise',
  tags: ['Workflows'],
  auth: 'service',
  // Writes nothing: a viewer may check and render (ADR 0210).
  access: 'read',
  rateTier: 3,
  params: WorkflowPath,
  query: EnvironmentQuery,
  body: z.object({ workflow: acceptingCliFiles(WorkflowRequest) }),
  response: WrappedWorkflow,
});

/** Not in the reference nor the clients (ADR 0225): as a guide is archived, in every environment. */
export const archiveWorkflowRoute = defineRoute({
  operationId: 'archiveWorkflow',
  method: 'DELETE',
  path: '/v1/workflows/{workflow_key}',
  summary: 'Archive a workflow in every environment (only in the branch when one is given): it leaves the lists and cannot be triggered',
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 3,
  params: WorkflowPath,
  query: EnvironmentQuery,
  response: ArchiveResult,
});

export const activateWorkflowRoute = defineRoute({
  operationId: 'activateWorkflow',
  method: 'PUT',
  path: '/v1/workflows/{workflow_key}/activate',
  summary: 'Activate (status true, the default) or deactivate a workflow in an environment; status in the body or the query',
  tags: ['Workflows'],
  auth: 'service',
  rateTier: 3,
  params: WorkflowPath,
  query: EnvironmentQuery.extend({ status: QueryFlag.optional() }),
  body: z.object({ status: z.boolean().optional() }).optional(),
  response: WrappedWorkflow,
});
