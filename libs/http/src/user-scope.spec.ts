import { allRoutes } from '@notify/contracts';
import { rateLimitSubject } from './rate-limit.guard';
import { RequestContext } from './request-context';
import { scopedUserIds } from './user-scope';

describe('user scopes of browser routes', () => {
  it('every route a publishable key may call says where its user is named', () => {
    const publicRoutes = allRoutes().filter((r) => r.auth === 'public');
    expect(publicRoutes.length).toBeGreaterThan(5);
    expect(publicRoutes.filter((r) => !r.userScope).map((r) => r.operationId)).toEqual([]);
    // A route scoped by a path parameter has that parameter in its path.
    for (const route of publicRoutes) {
      if (route.userScope === 'handler') continue;
      for (const param of route.userScope!.params ?? []) expect(`${route.operationId} ${route.path}`).toContain(`{${param}}`);
    }
  });

  it('collects the named users from params, query and body, strings or lists', () => {
    expect(scopedUserIds({ params: ['user_id'] }, { params: { user_id: 'alice', channel_id: 'x' } })).toEqual(['alice']);
    expect(
      scopedUserIds({ body: ['user_ids', 'recipient_ids'] }, { body: { user_ids: ['alice', 'bob'], recipient_ids: ['carol'] } }),
    ).toEqual(['alice', 'bob', 'carol']);
    expect(scopedUserIds({ body: ['user_ids'] }, { body: undefined })).toEqual([]);
    // Something that is not a plain id still counts as a name, so it can never match a user silently.
    expect(scopedUserIds({ query: ['user'] }, { query: { user: { id: 'alice' } } })).toEqual(['{"id":"alice"}']);
    expect(scopedUserIds('handler', { params: { user_id: 'alice' } })).toEqual([]);
  });
});

describe('rate-limit subject', () => {
  const ctx = (over: Partial<RequestContext>): RequestContext => ({
    requestId: 'r',
    environment: 'dev',
    credential: { kind: 'publishable', id: 'k' },
    ...over,
  });

  it('counts browser calls per user and server calls per environment', () => {
    expect(rateLimitSubject(ctx({ userId: 'alice', subjectUserId: 'alice' }), '1.2.3.4')).toBe('dev:user:alice');
    expect(rateLimitSubject(ctx({ subjectUserId: 'bob' }), '1.2.3.4')).toBe('dev:user:bob');
    expect(rateLimitSubject(ctx({}), '1.2.3.4')).toBe('dev:env');
    expect(rateLimitSubject(ctx({ credential: { kind: 'secret', id: 'k' }, subjectUserId: 'bob' }), '1.2.3.4')).toBe('dev:env');
    expect(rateLimitSubject(undefined, '1.2.3.4')).toBe('ip:1.2.3.4');
  });
});
