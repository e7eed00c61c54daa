import { PageMember, resumedPage } from './resumed-page';

const m = (userId: string, tenant = ''): PageMember => ({ userId, tenant });

describe('a page resumed after a sender stopped (ADR 0172)', () => {
  it('unchanged membership: nothing more to trigger, the same count', () => {
    const page = [m('a'), m('b'), m('c', 'acme')];
    const triggered = new Map([
      ['', [m('a'), m('b')]],
      ['acme', [m('c', 'acme')]],
    ]);
    expect(resumedPage(page, triggered)).toEqual({ extras: [], recipients: 3 });
  });

  it('a member added inside the page gets its run; one removed since still counts (it was triggered)', () => {
    const now = [m('a'), m('a2'), m('c')];
    const triggered = new Map([['', [m('a'), m('b'), m('c')]]]);
    expect(resumedPage(now, triggered)).toEqual({ extras: [m('a2')], recipients: 4 });
  });

  it('members of a tenant whose run did not exist yet are covered by the run just triggered, others are extras', () => {
    const now = [m('a'), m('b', 'acme'), m('x', 'beta')];
    const triggered = new Map([
      ['', [m('a')]],
      ['acme', [m('b', 'acme')]],
    ]);
    expect(resumedPage(now, triggered)).toEqual({ extras: [m('x', 'beta')], recipients: 3 });
  });

  it('the same user in another tenant is another member', () => {
    const triggered = new Map([['', [m('a')]]]);
    expect(resumedPage([m('a'), m('a', 'acme')], triggered)).toEqual({ extras: [m('a', 'acme')], recipients: 2 });
  });
});
