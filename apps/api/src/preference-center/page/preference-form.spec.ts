import { PreferenceCenterRowT } from '@notify/contracts';
import { emptyPreferenceSet } from '@notify/domain';
import { formRequest, formRows, shownRows, unsubscribeRequest } from './preference-form';

const rows: PreferenceCenterRowT[] = [
  { type: 'category', name: 'Marketing', identifier: 'marketing', channel_types: ['email', 'in_app'] },
  { type: 'workflow', name: 'Digest', identifier: 'digest' },
  { type: 'channel_types', name: 'Channels', channel_types: [] },
  { type: 'channel', name: 'Slack', identifier: 'c-1' },
  { type: 'commercial_subscribed', name: 'Commercial' },
];

describe('preference page form', () => {
  it('shows a box per offered channel type (in_app as the in-app feed), checked unless opted out', () => {
    const effective = {
      ...emptyPreferenceSet(),
      categories: { marketing: { channel_types: { email: false } } },
      workflows: { digest: false },
      channel_types: { sms: false },
      commercial_subscribed: false,
    };
    const shown = formRows(rows, effective);
    expect(shown[0].boxes).toEqual([
      { name: 'categories:marketing:email', label: 'Email', checked: false },
      { name: 'categories:marketing:in_app_feed', label: 'In-app', checked: true },
    ]);
    expect(shown[1].boxes).toEqual([{ name: 'workflows:digest', label: 'Receive', checked: false }]);
    expect(shown[2].boxes.map((b) => [b.name, b.checked])).toEqual([
      ['channel_types:email', true],
      ['channel_types:sms', false],
      ['channel_types:push', true],
      ['channel_types:chat', true],
      ['channel_types:http', true],
      ['channel_types:in_app_feed', true],
    ]);
    expect(shown[3].boxes).toEqual([{ name: 'channels:c-1', label: 'Receive', checked: true }]);
    expect(shown[4].boxes).toEqual([{ name: 'commercial_subscribed', label: 'Receive', checked: false }]);
  });

  it('turns the ticked boxes into a merge request: unticked boxes of shown rows are opt-outs, other settings are kept', () => {
    const own = { ...emptyPreferenceSet(), categories: { marketing: { channel_types: { sms: false }, conditions: [] } } };
    const request = formRequest(rows, own, {
      'categories:marketing:in_app_feed': 'on',
      'channel_types:email': 'on',
      commercial_subscribed: 'on',
    });
    expect(request).toEqual({
      __persistence_strategy__: 'merge',
      categories: { marketing: { channel_types: { sms: false, email: false, in_app_feed: true }, conditions: [] } },
      workflows: { digest: false },
      channel_types: { email: true, sms: false, push: false, chat: false, http: false, in_app_feed: false },
      channels: { 'c-1': false },
      commercial_subscribed: true,
    });
  });

  it('keeps a whole-category opt-out for the channel types the page does not show', () => {
    const own = { ...emptyPreferenceSet(), categories: { marketing: false } };
    const request = formRequest([rows[0]], own, { 'categories:marketing:email': 'on' });
    expect(request.categories!.marketing).toEqual({
      channel_types: { email: true, in_app_feed: false, sms: false, push: false, chat: false, http: false },
    });
  });

  it('a disabled preference center shows only the commercial opt-out', () => {
    expect(shownRows({ title: 'T', body: 'B', rows }, false)).toEqual([rows[4]]);
    expect(shownRows({ title: 'T', body: 'B', rows: [rows[0]] }, false)).toEqual([
      { type: 'commercial_subscribed', name: 'Commercial messages' },
    ]);
  });

  it('one-click unsubscribe turns email off per category, keeping the rest of each setting', () => {
    const own = { ...emptyPreferenceSet(), categories: { news: { channel_types: { sms: false } }, gone: false } };
    expect(unsubscribeRequest(['news', 'fresh', 'gone'], own)).toEqual({
      __persistence_strategy__: 'merge',
      categories: { news: { channel_types: { sms: false, email: false } }, fresh: { channel_types: { email: false } } },
    });
  });
});
