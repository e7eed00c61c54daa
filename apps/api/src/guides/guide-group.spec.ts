import { ResourceRecord } from '@notify/projections/config-resources';
import { defaultGuideGroup } from './user-guides';

const record = (key: string, created: string): ResourceRecord => ({
  environment: 'development',
  type: 'guide',
  identifier: key,
  content: {},
  sha: key,
  valid: true,
  errors: [],
  active: true,
  activeFrom: null,
  activeUntil: null,
  hasUncommittedChanges: false,
  createdAt: new Date(created),
  updatedAt: new Date(created),
});

describe('the default guide group of a channel (ADR 0166)', () => {
  const records = [record('c', '2026-01-03T00:00:00Z'), record('a', '2026-01-01T00:00:00Z'), record('b', '2026-01-02T00:00:00Z')];

  it('orders guides oldest first without a configured group, with no throttle', () => {
    const group = defaultGuideGroup(records, { settings: null, createdAt: null, updatedAt: null })!;
    expect(group).toEqual({
      __typename: 'GuideGroup',
      key: 'default',
      display_sequence: ['a', 'b', 'c'],
      display_sequence_unthrottled: [],
      display_sequence_throttled: ['a', 'b', 'c'],
      inserted_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-03T00:00:00.000Z',
    });
  });

  it('puts the configured guides first in their order, keeps only the channel guides, and splits the throttled ones', () => {
    const at = '2026-02-01T00:00:00.000Z';
    const settings = { display_sequence: ['c', 'gone', 'b'], display_sequence_unthrottled: ['b', 'elsewhere'], display_interval: 600 };
    const group = defaultGuideGroup(records, { settings, createdAt: at, updatedAt: at })!;
    expect(group).toMatchObject({
      display_sequence: ['c', 'b', 'a'],
      display_sequence_unthrottled: ['b'],
      display_sequence_throttled: ['c', 'a'],
      display_interval: 600,
      inserted_at: at,
    });
  });

  it('is none for a channel without guides', () => {
    expect(defaultGuideGroup([], { settings: null, createdAt: null, updatedAt: null })).toBeUndefined();
  });
});
