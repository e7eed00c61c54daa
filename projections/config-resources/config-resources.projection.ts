import {
  AudienceArchived,
  AudienceUpserted,
  BranchCreated,
  BranchDeleted,
  BranchRebased,
  CommitPromoted,
  EmailLayoutArchived,
  EmailLayoutUpserted,
  GuideActivated,
  GuideArchived,
  GuideDeactivated,
  GuideGroupUpdated,
  GuideUpserted,
  MessageTypeUpserted,
  PartialArchived,
  PartialUpserted,
  ResourcesCommitted,
  TranslationUpserted,
  WorkflowActivated,
  WorkflowArchived,
  WorkflowDeactivated,
  WorkflowUpserted,
} from '@notify/contracts';
import { ARCHIVED_TYPE_OF, RESOURCE_TYPE_OF } from '@notify/domain';
import { defineProjection, EntityManager, ProjectedEventOf } from '@notify/projection-runtime';
import { announceGuideChange } from './guide-notifications';

const UPSERTED = [
  WorkflowUpserted,
  PartialUpserted,
  EmailLayoutUpserted,
  TranslationUpserted,
  MessageTypeUpserted,
  AudienceUpserted,
  GuideUpserted,
] as const;

/** Every resource type's upsert: the draft moves, and its content is kept as a version by its sha. */
async function upserted(event: ProjectedEventOf<(typeof UPSERTED)[number]>, tx: EntityManager): Promise<void> {
  const { type, environment, data: d } = event;
  const resourceType = RESOURCE_TYPE_OF[type];
  await tx.query(
    `INSERT INTO rm_config_resources (environment, resource_type, identifier, draft, draft_sha, valid, errors, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     ON CONFLICT (environment, resource_type, identifier) DO UPDATE SET draft = EXCLUDED.draft, draft_sha = EXCLUDED.draft_sha,
       valid = EXCLUDED.valid, errors = EXCLUDED.errors, updated_at = EXCLUDED.updated_at`,
    [environment, resourceType, d.key, JSON.stringify(d.content), d.sha, d.valid, JSON.stringify(d.errors), d.upserted_at],
  );
  await insertVersion(tx, resourceType, d.key, d.sha, d.content, d.valid, d.errors);
  // Upserted again after being archived: a new resource of that key; the archived one is gone (ADR 0225).
  await tx.query(`DELETE FROM rm_archived_config_resources WHERE environment = $1 AND resource_type = $2 AND identifier = $3`, [
    environment,
    resourceType,
    d.key,
  ]);
  if (resourceType === 'guide') await announceGuideChange(tx, event, { key: d.key });
}

async function activation(
  { type, environment, data }: ProjectedEventOf<typeof WorkflowActivated | typeof WorkflowDeactivated>,
  tx: EntityManager,
) {
  await tx.query(`UPDATE rm_config_resources SET active = $4 WHERE environment = $1 AND resource_type = $2 AND identifier = $3`, [
    environment,
    'workflow',
    data.key,
    type === 'WorkflowActivated',
  ]);
}

/** Moves the row out of the served resources into the archived ones (ADR 0225). */
async function archived(
  { type, environment, data }: ProjectedEventOf<typeof WorkflowArchived | typeof PartialArchived | typeof EmailLayoutArchived>,
  tx: EntityManager,
): Promise<void> {
  const params = [environment, ARCHIVED_TYPE_OF[type], data.key];
  await tx.query(
    `INSERT INTO rm_archived_config_resources (environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, created_at, updated_at, archived_at)
     SELECT environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, created_at, updated_at, $4
     FROM rm_config_resources WHERE environment = $1 AND resource_type = $2 AND identifier = $3
     ON CONFLICT (environment, resource_type, identifier) DO UPDATE SET draft = EXCLUDED.draft, draft_sha = EXCLUDED.draft_sha, valid = EXCLUDED.valid,
       errors = EXCLUDED.errors, committed = EXCLUDED.committed, committed_sha = EXCLUDED.committed_sha, created_at = EXCLUDED.created_at,
       updated_at = EXCLUDED.updated_at, archived_at = EXCLUDED.archived_at`,
    [...params, data.archived_at],
  );
  await tx.query(`DELETE FROM rm_config_resources WHERE environment = $1 AND resource_type = $2 AND identifier = $3`, params);
}

/** Versioned configuration resources per environment: drafts, committed versions, activation. */
export const configResourcesProjection = defineProjection({
  name: 'config-resources',
  version: 1,
  // rm_config_version was added without a version bump, as rm_credentials_version was (ADR 0136, 0217).
  tables: ['rm_config_resources', 'rm_config_versions', 'rm_archived_config_resources', 'rm_config_version'],
  events: [
    ...UPSERTED,
    WorkflowActivated,
    WorkflowDeactivated,
    WorkflowArchived,
    PartialArchived,
    EmailLayoutArchived,
    AudienceArchived,
    GuideActivated,
    GuideDeactivated,
    GuideArchived,
    GuideGroupUpdated,
    ResourcesCommitted,
    CommitPromoted,
    BranchCreated,
    BranchRebased,
    BranchDeleted,
  ],
  on: {
    BranchCreated: branchTook,
    BranchRebased: branchTook,
    async BranchDeleted({ data }, tx) {
      await tx.query('DELETE FROM rm_config_resources WHERE environment = $1', [data.environment]);
      await tx.query('DELETE FROM rm_archived_config_resources WHERE environment = $1', [data.environment]);
    },
    WorkflowUpserted: upserted,
    PartialUpserted: upserted,
    EmailLayoutUpserted: upserted,
    TranslationUpserted: upserted,
    MessageTypeUpserted: upserted,
    AudienceUpserted: upserted,
    GuideUpserted: upserted,
    WorkflowActivated: activation,
    WorkflowDeactivated: activation,
    WorkflowArchived: archived,
    PartialArchived: archived,
    EmailLayoutArchived: archived,
    async AudienceArchived({ environment, data }, tx) {
      // Archived audiences leave the lists; upserted again, one starts a new row (ADR 0171).
      await tx.query(`DELETE FROM rm_config_resources WHERE environment = $1 AND resource_type = 'audience' AND identifier = $2`, [
        environment,
        data.audience_key,
      ]);
    },
    async GuideActivated(event, tx) {
      const { environment, data } = event;
      await tx.query(
        `UPDATE rm_config_resources SET active = true, active_from = $3, active_until = $4
         WHERE environment = $1 AND resource_type = 'guide' AND identifier = $2`,
        [environment, data.key, data.active_from, data.active_until],
      );
      await announceGuideChange(tx, event, { key: data.key });
    },
    async GuideDeactivated(event, tx) {
      const { environment, data } = event;
      await tx.query(
        `UPDATE rm_config_resources SET active = false, active_from = NULL, active_until = NULL
         WHERE environment = $1 AND resource_type = 'guide' AND identifier = $2`,
        [environment, data.key],
      );
      await announceGuideChange(tx, event, { key: data.key });
    },
    async GuideArchived(event, tx) {
      const { environment, data } = event;
      // Like audiences (ADR 0171): an archived guide leaves the lists; upserted again, it starts a new row.
      await tx.query(`DELETE FROM rm_config_resources WHERE environment = $1 AND resource_type = 'guide' AND identifier = $2`, [
        environment,
        data.key,
      ]);
      await announceGuideChange(tx, event, { key: data.key });
    },
    async GuideGroupUpdated(event, tx) {
      // Read from its stream (ADR 0166); only announced here, for the sockets.
      await announceGuideChange(tx, event, { group: event.data.key });
    },
    async ResourcesCommitted({ environment, data }, tx) {
      for (const c of data.commits) {
        await tx.query(
          `UPDATE rm_config_resources r SET committed = v.content, committed_sha = v.sha
           FROM rm_config_versions v
           WHERE r.environment = $1 AND r.resource_type = $2 AND r.identifier = $3 AND v.resource_type = $2 AND v.identifier = $3 AND v.sha = $4`,
          [environment, c.resource.type, c.resource.identifier, c.sha],
        );
      }
    },
    async CommitPromoted(event, tx) {
      const { environment, data: d } = event;
      const ref = [environment, d.resource.type, d.resource.identifier];
      // A commit of a resource archived since in the environment it comes from does not bring it
      // back (ADR 0225: archived everywhere); once that environment serves it again (upserted
      // anew), its commits are promoted, and a copy archived here is replaced.
      const archivedAtSource = await tx.query(
        `SELECT 1 FROM rm_archived_config_resources a WHERE a.environment = $1 AND a.resource_type = $2 AND a.identifier = $3
           AND NOT EXISTS (SELECT 1 FROM rm_config_resources r WHERE r.environment = $1 AND r.resource_type = $2 AND r.identifier = $3)`,
        [d.from_environment, d.resource.type, d.resource.identifier],
      );
      if (archivedAtSource.length) {
        await insertVersion(tx, d.resource.type, d.resource.identifier, d.sha, d.content, true, []);
        return;
      }
      await tx.query('DELETE FROM rm_archived_config_resources WHERE environment = $1 AND resource_type = $2 AND identifier = $3', ref);
      // The environment now serves the promoted version; it has no drafts of its own.
      await tx.query(
        `INSERT INTO rm_config_resources (environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, true, '[]', $4, $5, $6, $6)
         ON CONFLICT (environment, resource_type, identifier) DO UPDATE SET draft = EXCLUDED.draft, draft_sha = EXCLUDED.draft_sha, valid = true,
           errors = '[]', committed = EXCLUDED.committed, committed_sha = EXCLUDED.committed_sha, updated_at = EXCLUDED.updated_at`,
        [environment, d.resource.type, d.resource.identifier, JSON.stringify(d.content), d.sha, d.promoted_at],
      );
      await insertVersion(tx, d.resource.type, d.resource.identifier, d.sha, d.content, true, []);
      if (d.resource.type === 'guide') await announceGuideChange(tx, event, { key: d.resource.identifier });
    },
  },
  // Every event here can change a workflow as the engine reads it: the version moves in the same
  // transaction as the change, so a reader that sees the new version sees the change (ADR 0217).
  async afterBatch(events, tx) {
    await tx.query(
      `INSERT INTO rm_config_version (id, position) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET position = EXCLUDED.position`,
      [events[events.length - 1].position],
    );
  },
});

/** A branch takes versions committed in its environment: committed in the branch too, with no changes of its own. */
async function branchTook({ data }: ProjectedEventOf<typeof BranchCreated | typeof BranchRebased>, tx: EntityManager): Promise<void> {
  const at = 'created_at' in data ? data.created_at : data.rebased_at;
  for (const r of data.resources) {
    await tx.query(
      `INSERT INTO rm_config_resources (environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, true, '[]', $4, $5, $6, $6)
       ON CONFLICT (environment, resource_type, identifier) DO UPDATE SET draft = EXCLUDED.draft, draft_sha = EXCLUDED.draft_sha, valid = true,
         errors = '[]', committed = EXCLUDED.committed, committed_sha = EXCLUDED.committed_sha, updated_at = EXCLUDED.updated_at`,
      [data.environment, r.type, r.identifier, JSON.stringify(r.content), r.sha, at],
    );
    await insertVersion(tx, r.type, r.identifier, r.sha, r.content, true, []);
  }
}

async function insertVersion(
  tx: EntityManager,
  type: string,
  identifier: string,
  sha: string,
  content: unknown,
  valid: boolean,
  errors: unknown,
): Promise<void> {
  await tx.query(
    `INSERT INTO rm_config_versions (resource_type, identifier, sha, content, valid, errors) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (resource_type, identifier, sha) DO NOTHING`,
    [type, identifier, sha, JSON.stringify(content), valid, JSON.stringify(errors)],
  );
}
