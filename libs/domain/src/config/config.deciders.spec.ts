import { deciderSpec } from '@notify/testing/decider-spec';
import { channelGroupDecider, variableDecider } from './account-config.deciders';
import { commitLogDecider } from './commit-log.decider';
import { resourceDecider } from './resource.decider';

const now = '2026-01-01T00:00:00.000Z';
const upsert = (sha: string, valid = true) => ({
  type: 'UpsertResource' as const,
  resourceType: 'workflow' as const,
  key: 'welcome',
  content: { name: 'Welcome', steps: [] },
  sha,
  valid,
  errors: valid ? [] : [{ field: 'steps.0.channel_key', message: 'no such channel', type: 'reference' }],
  now,
});
const upserted = (sha: string, valid = true) => ({
  type: 'WorkflowUpserted' as const,
  data: { key: 'welcome', content: { name: 'Welcome', steps: [] }, sha, valid, errors: upsert(sha, valid).errors, upserted_at: now },
});
const activated = { type: 'WorkflowActivated' as const, data: { key: 'welcome', activated_at: now } };

describe('resource decider', () => {
  const spec = deciderSpec(resourceDecider);

  it('records an upsert, under the event type of its resource type', () => {
    spec
      .given([])
      .when(upsert('a'))
      .then([upserted('a')]);
    spec
      .given([])
      .when({ ...upsert('a'), resourceType: 'partial' })
      .then([{ type: 'PartialUpserted', data: upserted('a').data }]);
  });

  it('records nothing when the same data is upserted again, and a change when it differs', () => {
    spec
      .given([upserted('a')])
      .when(upsert('a'))
      .thenNothing();
    spec
      .given([upserted('a')])
      .when(upsert('b'))
      .then([upserted('b')]);
  });

  it('activates a valid workflow once and deactivates it', () => {
    const served = { valid: true, errors: [] };
    spec
      .given([upserted('a')])
      .when({ type: 'SetWorkflowActive', key: 'welcome', active: true, served, now })
      .then([activated]);
    spec
      .given([upserted('a'), activated])
      .when({ type: 'SetWorkflowActive', key: 'welcome', active: true, served, now })
      .thenNothing();
    spec
      .given([upserted('a'), activated])
      .when({ type: 'SetWorkflowActive', key: 'welcome', active: false, served, now })
      .then([{ type: 'WorkflowDeactivated', data: { key: 'welcome', deactivated_at: now } }]);
  });

  it('refuses to activate an invalid or missing workflow', () => {
    spec
      .given([upserted('a', false)])
      .when({ type: 'SetWorkflowActive', key: 'welcome', active: true, served: { valid: false, errors: [] }, now })
      .thenThrows('workflow_invalid');
    spec.given([]).when({ type: 'SetWorkflowActive', key: 'welcome', active: true, served: null, now }).thenThrows('resource_missing');
  });

  it('names a reason when refusing to activate an invalid workflow saved without its errors', () => {
    const refusal = (errors: { field: string; message: string; type: string }[]) => {
      try {
        const state = { ...resourceDecider.initialState(), exists: true };
        resourceDecider.decide({ type: 'SetWorkflowActive', key: 'welcome', active: true, served: { valid: false, errors }, now }, state);
      } catch (error) {
        return error as { code: string; message: string; fields: unknown[] };
      }
      throw new Error('expected a refusal');
    };
    expect(refusal([])).toMatchObject({
      code: 'workflow_invalid',
      fields: [expect.objectContaining({ field: 'workflow', type: 'invalid' })],
    });
    const saved = [{ field: 'steps.0.template.settings', message: 'is required', type: 'template_shape' }];
    expect(refusal(saved).fields).toEqual(saved);
  });

  it('archives an audience definition once; the same data upserted after it is recorded again', () => {
    const audience = { ...upsert('a'), resourceType: 'audience' as const, key: 'news' };
    const audienceUpserted = { type: 'AudienceUpserted' as const, data: { ...upserted('a').data, key: 'news' } };
    const archived = { type: 'AudienceArchived' as const, data: { audience_key: 'news', archived_at: now } };
    spec.given([audienceUpserted]).when({ type: 'ArchiveAudience', key: 'news', now }).then([archived]);
    spec.given([audienceUpserted, archived]).when({ type: 'ArchiveAudience', key: 'news', now }).thenNothing();
    spec.given([]).when({ type: 'ArchiveAudience', key: 'news', now }).thenNothing();
    spec.given([audienceUpserted, archived]).when(audience).then([audienceUpserted]);
  });

  it('archives a served workflow, layout or partial (ADR 0225): inactive after it, and the same data upserted again is recorded', () => {
    const archive = { type: 'ArchiveResource' as const, resourceType: 'workflow' as const, key: 'welcome', served: true, now };
    const archived = { type: 'WorkflowArchived' as const, data: { key: 'welcome', archived_at: now } };
    spec
      .given([upserted('a'), activated])
      .when(archive)
      .then([archived]);
    // Promoted into an environment: no upsert in its stream, served by the read model's word.
    spec.given([]).when(archive).then([archived]);
    spec
      .given([upserted('a')])
      .when({ ...archive, served: false })
      .thenNothing();
    spec
      .given([upserted('a')])
      .when({ ...archive, resourceType: 'email_layout' })
      .then([{ type: 'EmailLayoutArchived', data: archived.data }]);
    spec
      .given([upserted('a'), activated, archived])
      .when(upsert('a'))
      .then([upserted('a')]);
    const served = { valid: true, errors: [] };
    spec
      .given([upserted('a'), activated, archived, upserted('a')])
      .when({ type: 'SetWorkflowActive', key: 'welcome', active: true, served, now })
      .then([activated]);
  });
});

describe('commit log decider', () => {
  const spec = deciderSpec(commitLogDecider);
  const ref = { type: 'workflow' as const, identifier: 'welcome' };
  const author = { email: 'service:t1', name: 'service:t1' };
  const id1 = '11111111-1111-4111-8111-111111111111';
  const id2 = '22222222-2222-4222-8222-222222222222';
  const committed = {
    type: 'ResourcesCommitted' as const,
    data: { commits: [{ commit_id: id1, resource: ref, sha: 'a' }], commit_message: 'first', author, committed_at: now },
  };

  it('commits changed versions only', () => {
    spec
      .given([])
      .when({ type: 'CommitChanges', changes: [{ commitId: id1, resource: ref, sha: 'a' }], message: 'first', author, now })
      .then([committed]);
    spec
      .given([committed])
      .when({ type: 'CommitChanges', changes: [{ commitId: id2, resource: ref, sha: 'a' }], message: 'again', author, now })
      .thenNothing();
  });

  it('promotes a commit into an environment once', () => {
    const commit = {
      commitId: id1,
      fromEnvironment: 'development',
      resource: ref,
      sha: 'a',
      content: { name: 'Welcome' },
      message: 'first',
    };
    const promoted = {
      type: 'CommitPromoted' as const,
      data: {
        commit_id: id1,
        from_environment: 'development',
        resource: ref,
        sha: 'a',
        content: { name: 'Welcome' },
        commit_message: 'first',
        promoted_at: now,
      },
    };
    spec
      .given([])
      .when({ type: 'PromoteCommits', commits: [commit], now })
      .then([promoted]);
    spec
      .given([promoted])
      .when({ type: 'PromoteCommits', commits: [commit], now })
      .thenNothing();
  });
});

describe('variable and channel group deciders', () => {
  it('records a variable change and ignores a repeat', () => {
    const variable = { key: 'app_url', type: 'public' as const, description: null, value: 'https://x', environment_values: {} };
    const event = { type: 'VariableUpserted' as const, data: { ...variable, upserted_at: now } };
    deciderSpec(variableDecider).given([]).when({ type: 'UpsertVariable', variable, now }).then([event]);
    deciderSpec(variableDecider).given([event]).when({ type: 'UpsertVariable', variable, now }).thenNothing();
  });

  it('upserts and archives a channel group once', () => {
    const group = {
      key: 'push',
      name: 'Push',
      channel_type: 'push' as const,
      operator: 'any' as const,
      visible_in: ['workflow' as const],
      channel_rules: [],
    };
    const event = { type: 'ChannelGroupUpserted' as const, data: { ...group, upserted_at: now } };
    const spec = deciderSpec(channelGroupDecider);
    spec.given([]).when({ type: 'UpsertChannelGroup', group, now }).then([event]);
    spec.given([event]).when({ type: 'UpsertChannelGroup', group, now }).thenNothing();
    spec
      .given([event])
      .when({ type: 'ArchiveChannelGroup', key: 'push', now })
      .then([{ type: 'ChannelGroupArchived', data: { key: 'push', archived_at: now } }]);
    spec.given([]).when({ type: 'ArchiveChannelGroup', key: 'push', now }).thenNothing();
  });
});
