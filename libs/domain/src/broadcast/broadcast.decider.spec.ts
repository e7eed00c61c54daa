import { deciderSpec } from '@notify/testing/decider-spec';
import { broadcastDecider } from './broadcast.decider';
import { BroadcastEvent } from './broadcast.events';

const now = '2026-01-01T00:00:00.000Z';
const later = '2026-01-01T01:00:00.000Z';
const sendId = '00000000-0000-4000-8000-000000000001';
const content = {
  name: 'Launch',
  description: null,
  steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app' }],
  target_audience_key: 'beta',
  categories: ['announcements'],
  settings: { is_commercial: true, override_preferences: false },
};
const upsert = (sha = 'a', valid = true) => ({ type: 'UpsertBroadcast' as const, key: 'launch', content, sha, valid, errors: [], now });
const upserted = (sha = 'a', valid = true): BroadcastEvent => ({
  type: 'BroadcastUpserted',
  data: { key: 'launch', content, sha, valid, errors: [], upserted_at: now },
});
const send = (sendAt: string | null = null, audienceExists = true) => ({
  type: 'SendBroadcast' as const,
  key: 'launch',
  sendId,
  sendAt,
  audienceExists,
  now,
});
const started = (at = now): BroadcastEvent => ({
  type: 'BroadcastSendStarted',
  data: { key: 'launch', send_id: sendId, content, sha: 'a', started_at: at },
});
const scheduled: BroadcastEvent = {
  type: 'BroadcastScheduled',
  data: { key: 'launch', send_id: sendId, send_at: later, scheduled_at: now },
};
const page = (cursor: string, recipients: number): BroadcastEvent => ({
  type: 'BroadcastPageSent',
  data: { key: 'launch', send_id: sendId, cursor, recipients, sent_at: now },
});

describe('broadcast decider', () => {
  const spec = deciderSpec(broadcastDecider);

  it('records a draft once, and a change when it differs', () => {
    spec.given([]).when(upsert()).then([upserted()]);
    spec.given([upserted()]).when(upsert()).thenNothing();
    spec
      .given([upserted()])
      .when(upsert('b'))
      .then([upserted('b')]);
  });

  it('sends a valid draft now, or schedules it when send_at is later', () => {
    spec.given([upserted()]).when(send()).then([started()]);
    spec.given([upserted()]).when(send(later)).then([scheduled]);
  });

  it('refuses a send_at already past, as the upsert refuses a past scheduled_at: a mistyped date does not send at once', () => {
    spec.given([upserted()]).when(send('2025-12-31T23:00:00Z')).thenThrows('invalid_params');
  });

  it('refuses to send a missing, invalid or already sent broadcast, or one whose audience is missing', () => {
    spec.given([]).when(send()).thenThrows('resource_missing');
    spec
      .given([upserted('a', false)])
      .when(send())
      .thenThrows('broadcast_invalid');
    spec.given([upserted()]).when(send(null, false)).thenThrows('invalid_params');
    spec.given([upserted(), started()]).when(send()).thenThrows('broadcast_not_draft');
    spec.given([upserted(), scheduled]).when(send()).thenThrows('broadcast_not_draft');
  });

  it('schedules the draft it saves when the upsert has scheduled_at (ADR 0201), refusing a past time, an invalid draft or a missing audience', () => {
    const withSchedule = (sendAt: string, audienceExists = true, sha = 'a', valid = true) => ({
      ...upsert(sha, valid),
      schedule: { sendId, sendAt, audienceExists },
    });
    spec.given([]).when(withSchedule(later)).then([upserted(), scheduled]);
    spec.given([upserted()]).when(withSchedule(later)).then([scheduled]);
    spec.given([]).when(withSchedule(now)).thenThrows('invalid_params');
    spec.given([]).when(withSchedule(later, false)).thenThrows('invalid_params');
    spec
      .given([])
      .when(withSchedule(later, true, 'a', false))
      .thenThrows('broadcast_invalid');
    spec.given([upserted(), scheduled]).when(withSchedule(later)).thenThrows('broadcast_not_editable');
  });

  it('only edits drafts', () => {
    spec.given([upserted(), started()]).when(upsert('b')).thenThrows('broadcast_not_editable');
    spec.given([upserted(), scheduled]).when(upsert('b')).thenThrows('broadcast_not_editable');
  });

  it('starts a scheduled send when its timer fires at or after send_at, once', () => {
    const fire = (at: string) => ({ type: 'StartScheduledSend' as const, key: 'launch', sendId, now: at });
    spec.given([upserted(), scheduled]).when(fire(now)).thenNothing();
    spec
      .given([upserted(), scheduled])
      .when(fire(later))
      .then([started(later)]);
    spec
      .given([upserted(), scheduled, started(later)])
      .when(fire(later))
      .thenNothing();
    spec
      .given([upserted(), scheduled])
      .when({ ...fire(later), sendId: '00000000-0000-4000-8000-000000000002' })
      .thenNothing();
  });

  it("records a page's tenants before its runs, each tenant once per page, and forgets them when the page is recorded (ADR 0232)", () => {
    const pageStarted = (pageStart: string | null, tenants: string[]): BroadcastEvent => ({
      type: 'BroadcastPageStarted',
      data: { key: 'launch', send_id: sendId, page_start: pageStart, tenants, started_at: now },
    });
    const start = (pageStart: string | null, tenants: string[]) => ({
      type: 'StartPage' as const,
      key: 'launch',
      sendId,
      pageStart,
      tenants,
      now,
    });
    spec
      .given([upserted(), started()])
      .when(start(null, ['', 'acme', 'acme']))
      .then([pageStarted(null, ['', 'acme'])]);
    // Continued after a stop: only tenants not recorded yet.
    spec
      .given([upserted(), started(), pageStarted(null, ['', 'acme'])])
      .when(start(null, ['', 'beta']))
      .then([pageStarted(null, ['beta'])]);
    spec
      .given([upserted(), started(), pageStarted(null, ['', 'acme'])])
      .when(start(null, ['acme']))
      .then([]);
    const given = [upserted(), started(), pageStarted(null, ['', 'acme']), pageStarted(null, ['beta'])];
    expect(given.reduce(broadcastDecider.evolve, broadcastDecider.initialState()).pageTenants).toEqual(['', 'acme', 'beta']);
    expect([...given, page('u2', 2)].reduce(broadcastDecider.evolve, broadcastDecider.initialState()).pageTenants).toEqual([]);
    // Another page than the cursor's, a canceled send or another send: nothing is started.
    spec
      .given([upserted(), started(), page('u2', 2)])
      .when(start(null, ['']))
      .then([]);
    spec
      .given([
        upserted(),
        started(),
        { type: 'BroadcastCanceled', data: { key: 'launch', send_id: sendId, was: 'sending', canceled_at: now } },
      ])
      .when(start(null, ['']))
      .then([]);
    spec
      .given([upserted(), started()])
      .when({ ...start(null, ['']), sendId: '00000000-0000-4000-8000-000000000009' })
      .then([]);
  });

  it('records pages while sending and completes with the recipients counted', () => {
    const record = { type: 'RecordPage' as const, key: 'launch', sendId, cursor: 'u2', recipients: 2, now };
    spec
      .given([upserted(), started()])
      .when(record)
      .then([page('u2', 2)]);
    spec
      .given([upserted(), started(), page('u2', 2), page('u4', 2)])
      .when({ type: 'CompleteSend', key: 'launch', sendId, now })
      .then([{ type: 'BroadcastSent', data: { key: 'launch', send_id: sendId, recipients: 4, completed_at: now } }]);
    // A completed send records nothing more.
    const sent: BroadcastEvent = { type: 'BroadcastSent', data: { key: 'launch', send_id: sendId, recipients: 4, completed_at: now } };
    spec.given([upserted(), started(), sent]).when(record).thenNothing();
  });

  it('cancels a scheduled send back to draft, and a send in progress so that it stops after the page in progress', () => {
    const cancel = { type: 'CancelBroadcast' as const, key: 'launch', now };
    const canceledScheduled: BroadcastEvent = {
      type: 'BroadcastCanceled',
      data: { key: 'launch', send_id: sendId, was: 'scheduled', canceled_at: now },
    };
    spec.given([upserted(), scheduled]).when(cancel).then([canceledScheduled]);
    // Back to draft: it can be edited and sent again.
    spec
      .given([upserted(), scheduled, canceledScheduled])
      .when(upsert('b'))
      .then([upserted('b')]);
    spec.given([upserted(), scheduled, canceledScheduled]).when(send()).then([started()]);
    // The timer of the canceled send does nothing.
    spec
      .given([upserted(), scheduled, canceledScheduled])
      .when({ type: 'StartScheduledSend', key: 'launch', sendId, now: later })
      .thenNothing();

    const canceledSending: BroadcastEvent = {
      type: 'BroadcastCanceled',
      data: { key: 'launch', send_id: sendId, was: 'sending', canceled_at: now },
    };
    spec
      .given([upserted(), started(), page('u2', 2)])
      .when(cancel)
      .then([canceledSending]);
    // The page in progress when the cancel came is still counted; the sender stops after it.
    spec
      .given([upserted(), started(), canceledSending])
      .when({ type: 'RecordPage', key: 'launch', sendId, cursor: 'u4', recipients: 2, now })
      .then([page('u4', 2)]);
    spec.given([upserted(), started(), canceledSending]).when(cancel).thenThrows('broadcast_not_cancelable');
    spec.given([upserted()]).when(cancel).thenThrows('broadcast_not_cancelable');
    spec.given([]).when(cancel).thenThrows('resource_missing');
  });
});
