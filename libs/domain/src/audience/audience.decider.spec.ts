import { deciderSpec } from '@notify/testing/decider-spec';
import { audienceDecider } from './audience.decider';
import { AudienceEvent } from './audience.events';

const now = '2026-01-01T00:00:00.000Z';
const created: AudienceEvent = { type: 'AudienceCreated', data: { audience_key: 'beta', type: 'static', created_at: now } };
const member = (userId: string, tenant: string | null = null, present = false) => ({ userId, tenant, present });

describe('audience decider', () => {
  const spec = deciderSpec(audienceDecider);

  it('refuses members for an audience that does not exist unless asked to create it', () => {
    spec
      .given([])
      .when({ type: 'AddAudienceMembers', audienceKey: 'beta', members: [member('u1')], createIfMissing: false, now })
      .thenThrows('resource_missing');
    spec
      .given([])
      .when({ type: 'AddAudienceMembers', audienceKey: 'beta', members: [member('u1')], createIfMissing: true, now })
      .then([
        created,
        { type: 'AudienceMembersAdded', data: { audience_key: 'beta', members: [{ user_id: 'u1', tenant: null }], added_at: now } },
      ]);
  });

  it('adds only members not yet present, each once; the same user may belong per tenant', () => {
    spec
      .given([created])
      .when({
        type: 'AddAudienceMembers',
        audienceKey: 'beta',
        members: [member('u1', null, true), member('u2'), member('u2'), member('u2', 'acme')],
        createIfMissing: false,
        now,
      })
      .then([
        {
          type: 'AudienceMembersAdded',
          data: {
            audience_key: 'beta',
            members: [
              { user_id: 'u2', tenant: null },
              { user_id: 'u2', tenant: 'acme' },
            ],
            added_at: now,
          },
        },
      ]);
  });

  it('adding members already present changes nothing', () => {
    spec
      .given([created])
      .when({ type: 'AddAudienceMembers', audienceKey: 'beta', members: [member('u1', null, true)], createIfMissing: true, now })
      .thenNothing();
  });

  it('removes only members present; an unknown audience is missing', () => {
    spec
      .given([created])
      .when({ type: 'RemoveAudienceMembers', audienceKey: 'beta', members: [member('u1', 'acme', true), member('u2')], now })
      .then([
        { type: 'AudienceMembersRemoved', data: { audience_key: 'beta', members: [{ user_id: 'u1', tenant: 'acme' }], removed_at: now } },
      ]);
    spec
      .given([created])
      .when({ type: 'RemoveAudienceMembers', audienceKey: 'beta', members: [member('u2')], now })
      .thenNothing();
    spec
      .given([])
      .when({ type: 'RemoveAudienceMembers', audienceKey: 'beta', members: [member('u1', null, true)], now })
      .thenThrows('resource_missing');
  });

  it('an audience defined through the management API takes members without being created here', () => {
    spec
      .given([])
      .when({ type: 'AddAudienceMembers', audienceKey: 'beta', members: [member('u1')], createIfMissing: false, defined: true, now })
      .then([{ type: 'AudienceMembersAdded', data: { audience_key: 'beta', members: [{ user_id: 'u1', tenant: null }], added_at: now } }]);
    spec
      .given([])
      .when({ type: 'RemoveAudienceMembers', audienceKey: 'beta', members: [member('u1')], defined: true, now })
      .thenNothing();
  });

  it('archiving ends the audience: a second archive is a no-op, members are refused, create_audience starts it again', () => {
    const archived: AudienceEvent = { type: 'AudienceArchived', data: { audience_key: 'beta', archived_at: now } };
    spec.given([created]).when({ type: 'ArchiveAudience', audienceKey: 'beta', defined: false, now }).then([archived]);
    spec.given([created, archived]).when({ type: 'ArchiveAudience', audienceKey: 'beta', defined: false, now }).thenNothing();
    // Defined through the management API only: its members' side is archived too.
    spec.given([]).when({ type: 'ArchiveAudience', audienceKey: 'beta', defined: true, now }).then([archived]);
    spec
      .given([created, archived])
      .when({ type: 'AddAudienceMembers', audienceKey: 'beta', members: [member('u1')], createIfMissing: false, now })
      .thenThrows('resource_missing');
    spec
      .given([created, archived])
      .when({ type: 'AddAudienceMembers', audienceKey: 'beta', members: [member('u1')], createIfMissing: true, now })
      .then([
        created,
        { type: 'AudienceMembersAdded', data: { audience_key: 'beta', members: [{ user_id: 'u1', tenant: null }], added_at: now } },
      ]);
  });
});
