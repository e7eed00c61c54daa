import { CommitPromoted, EventOf, ResourcesCommitted } from '@notify/contracts';
import { RecordedEvent } from '@notify/eventstore';
import { EntityManager, Projection } from '@notify/projection-runtime';

type Handled = EventOf<typeof ResourcesCommitted> | EventOf<typeof CommitPromoted>;

export const commitsProjection: Projection = {
  name: 'commits',
  version: 1,
  filter: { eventTypes: ['ResourcesCommitted', 'CommitPromoted'] },
  tables: ['rm_commits'],

  async apply(events: readonly RecordedEvent[], tx: EntityManager) {
    for (const recorded of events) {
      const event = recorded as unknown as Handled;
      const environment = recorded.metadata.environment;
      switch (event.type) {
        case 'ResourcesCommitted':
          for (const c of event.data.commits) {
            await tx.query(
              `INSERT INTO rm_commits (environment, id, origin, resource_type, identifier, sha, message, author, created_at) VALUES ($1, $2, true, $3, $4, $5, $6, $7, $8)
               ON CONFLICT (environment, id) DO NOTHING`,
              [environment, c.commit_id, c.resource.type, c.resource.identifier, c.sha, event.data.commit_message, JSON.stringify(event.data.author), event.data.committed_at],
            );
          }
          break;
        case 'CommitPromoted': {
          const d = event.data;
          await tx.query('UPDATE rm_commits SET promoted_at = $3 WHERE environment = $1 AND id = $2', [d.from_environment, d.commit_id, d.promoted_at]);
          await tx.query(
            `INSERT INTO rm_commits (environment, id, origin, resource_type, identifier, sha, message, author, created_at)
             SELECT $1, id, false, resource_type, identifier, sha, message, author, $3 FROM rm_commits WHERE environment = $2 AND id = $4
             ON CONFLICT (environment, id) DO NOTHING`,
            [environment, d.from_environment, d.promoted_at, d.commit_id],
          );
          break;
        }
      }
    }
  },
};
