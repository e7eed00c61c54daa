import { AudienceArchived, CommitPromoted, EventOf, ResourcesCommitted, WorkflowActivated, WorkflowDeactivated } from '@notify/contracts';
import { RESOURCE_TYPE_OF, ResourceUpsertedEvent } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled =
  | ResourceUpsertedEvent
  | EventOf<typeof WorkflowActivated>
  | EventOf<typeof WorkflowDeactivated>
  | EventOf<typeof AudienceArchived>
  | EventOf<typeof ResourcesCommitted>
  | EventOf<typeof CommitPromoted>;

const UPSERTED = Object.keys(RESOURCE_TYPE_OF) as ResourceUpsertedEvent['type'][];

/** Versioned configuration resources per environment: drafts, committed versions, activation. */
export const configResourcesProjection: Projection = {
  name: 'config-resources',
  version: 1,
  filter: {
    eventTypes: [...UPSERTED, 'WorkflowActivated', 'WorkflowDeactivated', 'AudienceArchived', 'ResourcesCommitted', 'CommitPromoted'],
  },
  tables: ['rm_config_resources', 'rm_config_versions'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const environment = recorded.metadata.environment;
      switch (event.type) {
        case 'WorkflowUpserted':
        case 'PartialUpserted':
        case 'EmailLayoutUpserted':
        case 'TranslationUpserted':
        case 'MessageTypeUpserted':
        case 'AudienceUpserted': {
          const d = event.data;
          const type = RESOURCE_TYPE_OF[event.type];
          await tx.query(
            `INSERT INTO rm_config_resources (environment, resource_type, identifier, draft, draft_sha, valid, errors, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
             ON CONFLICT (environment, resource_type, identifier) DO UPDATE SET draft = EXCLUDED.draft, draft_sha = EXCLUDED.draft_sha,
               valid = EXCLUDED.valid, errors = EXCLUDED.errors, updated_at = EXCLUDED.updated_at`,
            [environment, type, d.key, JSON.stringify(d.content), d.sha, d.valid, JSON.stringify(d.errors), d.upserted_at],
          );
          await insertVersion(tx, type, d.key, d.sha, d.content, d.valid, d.errors);
          break;
        }
        case 'WorkflowActivated':
        case 'WorkflowDeactivated':
          await tx.query(`UPDATE rm_config_resources SET active = $4 WHERE environment = $1 AND resource_type = $2 AND identifier = $3`, [
            environment,
            'workflow',
            event.data.key,
            event.type === 'WorkflowActivated',
          ]);
          break;
        case 'AudienceArchived':
          // Archived audiences leave the lists; upserted again, one starts a new row (ADR 0171).
          await tx.query(`DELETE FROM rm_config_resources WHERE environment = $1 AND resource_type = 'audience' AND identifier = $2`, [
            environment,
            event.data.audience_key,
          ]);
          break;
        case 'ResourcesCommitted':
          for (const c of event.data.commits) {
            await tx.query(
              `UPDATE rm_config_resources r SET committed = v.content, committed_sha = v.sha
               FROM rm_config_versions v
               WHERE r.environment = $1 AND r.resource_type = $2 AND r.identifier = $3 AND v.resource_type = $2 AND v.identifier = $3 AND v.sha = $4`,
              [environment, c.resource.type, c.resource.identifier, c.sha],
            );
          }
          break;
        case 'CommitPromoted': {
          // The environment now serves the promoted version; it has no drafts of its own.
          const d = event.data;
          await tx.query(
            `INSERT INTO rm_config_resources (environment, resource_type, identifier, draft, draft_sha, valid, errors, committed, committed_sha, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, true, '[]', $4, $5, $6, $6)
             ON CONFLICT (environment, resource_type, identifier) DO UPDATE SET draft = EXCLUDED.draft, draft_sha = EXCLUDED.draft_sha, valid = true,
               errors = '[]', committed = EXCLUDED.committed, committed_sha = EXCLUDED.committed_sha, updated_at = EXCLUDED.updated_at`,
            [environment, d.resource.type, d.resource.identifier, JSON.stringify(d.content), d.sha, d.promoted_at],
          );
          await insertVersion(tx, d.resource.type, d.resource.identifier, d.sha, d.content, true, []);
          break;
        }
      }
    }
  },
};

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
