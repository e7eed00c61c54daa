import type { EventStore, RecordedEvent } from '@notify/eventstore';
import { TemplateEngine } from '@notify/templating';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { ReadModelLookups } from '../engine/read-model-lookups';
import { FeedLocalizer, LocalizableEntry } from './feed-localizer';
import { LinkTracker } from './link-tracking';

const RUN = '11111111-1111-4111-8111-111111111111';
const GONE_RUN = '22222222-2222-4222-8222-222222222222';
const M1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const M2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const M3 = 'aaaaaaaa-0000-4000-8000-000000000003';

const steps = [
  {
    type: 'channel',
    ref: 'feed',
    channel_key: 'in-app',
    template: {
      markdown_body:
        '{{ "greet" | t }} {{ recipient.name }} ({{ actor.name }}, {{ tenant.name }}, {{ vars.app }}) [go](https://x.example/{{ data.n }})',
      action_buttons: [{ label: 'Open', action: 'https://x.example/open' }],
    },
  },
  { type: 'channel', ref: 'broken', channel_key: 'in-app', template: { markdown_body: '{{ "greet" | t }} {% if data.n %}unclosed' } },
];

function setup(options: { links?: LinkTracker | null; channelLinkTracking?: boolean } = {}) {
  const queries: string[] = [];
  const db = {
    query: async (sql: string) => {
      queries.push(sql);
      if (sql.includes('FROM rm_message_activities')) return [];
      return [
        {
          id: M1,
          workflow_run_id: RUN,
          step_ref: 'feed',
          channel_key: 'in-app',
          data: { n: 7 },
          tenant: 'acme',
          actors: [{ type: 'user', id: 'boss' }],
          total_activities: 1,
          total_actors: 1,
        },
        {
          id: M2,
          workflow_run_id: RUN,
          step_ref: 'broken',
          data: { n: 1 },
          tenant: null,
          actors: [],
          total_activities: 1,
          total_actors: 0,
        },
        { id: M3, workflow_run_id: GONE_RUN, step_ref: 'feed', data: {}, tenant: null, actors: [], total_activities: 1, total_actors: 0 },
      ];
    },
  } as unknown as DataSource;
  const reads: string[] = [];
  const store = {
    readStream: async (stream: string) => {
      reads.push(stream);
      if (!stream.endsWith(RUN)) return [];
      const event = {
        type: 'WorkflowTriggered',
        data: { workflow: { key: 'w', categories: [], version: 'v1', steps }, actor: { type: 'user', id: 'boss' } },
      };
      return [event as unknown as RecordedEvent];
    },
  } as unknown as EventStore;
  const users: Record<string, Record<string, unknown>> = {
    ada: { id: 'ada', name: 'Ada', locale: 'en' },
    boss: { id: 'boss', name: 'Boss' },
  };
  const lookups = {
    forBatch() {
      return this;
    },
    recipient: async (_env: string, ref: { id: string }) => (users[ref.id] ? { ref, properties: users[ref.id] } : undefined),
    tenant: async (_env: string, id: string) => ({ id, name: 'Acme' }),
    channelByKey: async (_env: string, key: string) =>
      key === 'in-app' && options.channelLinkTracking !== undefined
        ? { key, settings: { channel_settings: { link_tracking: options.channelLinkTracking }, provider_settings: {} } }
        : undefined,
    vars: async () => ({ app: 'App' }),
    templateResources: () => ({
      partial: async () => undefined,
      translation: async (locale: string) => ({ en: { greet: 'Hello' }, fr: { greet: 'Bonjour' } })[locale],
    }),
  } as unknown as ReadModelLookups;
  const errors: string[] = [];
  const localizer = new FeedLocalizer(db, store, lookups, new TemplateEngine(), options.links ?? null, (id, reason) =>
    errors.push(`${id}: ${reason}`),
  );
  const entries = (): LocalizableEntry[] =>
    [M1, M2, M3].map((id) => ({ id, blocks: [{ type: 'markdown', name: 'body', content: 'as created', rendered: '<p>as created</p>' }] }));
  return { localizer, entries, queries, reads, errors };
}

describe('feed localizer', () => {
  it('renders an entry again in the locale with its data, actor, tenant and variables; keeps what cannot be rendered', async () => {
    const { localizer, entries, errors } = setup();
    const page = entries();
    await localizer.localize('development', 'ada', page, 'fr-CA');
    expect(page[0].blocks).toEqual([
      {
        type: 'markdown',
        name: 'body',
        content: 'Bonjour Ada (Boss, Acme, App) [go](https://x.example/7)',
        rendered: expect.stringContaining('Bonjour Ada (Boss, Acme, App)'),
      },
      { type: 'button_set', name: 'actions', buttons: [{ name: 'primary', label: 'Open', action: 'https://x.example/open' }] },
    ]);
    // A template error, or a run whose trigger cannot be read: the blocks as created.
    expect(page[1].blocks).toEqual(entries()[1].blocks);
    expect(page[2].blocks).toEqual(entries()[2].blocks);
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^${M2}: template_render_error`))]);
  });

  it('tracks the links of what it renders, for the message, as the engine does', async () => {
    const tracker = new LinkTracker(randomBytes(32), 'https://n.example');
    const { localizer, entries } = setup({ links: tracker });
    const page = entries();
    await localizer.localize('development', 'ada', page, 'fr');
    const [body, buttons] = page[0].blocks as [{ rendered: string }, { buttons: { action: string }[] }];
    const href = /href="https:\/\/n\.example\/v1\/links\/([^"]+)"/.exec(body.rendered)![1];
    expect(tracker.verify(href)).toEqual({ environment: 'development', messageId: M1, url: 'https://x.example/7' });
    expect(tracker.verify(buttons.buttons[0].action.split('/v1/links/')[1])).toEqual({
      environment: 'development',
      messageId: M1,
      url: 'https://x.example/open',
    });
  });

  it("follows the message's channel: link_tracking false there leaves links as they are", async () => {
    const { localizer, entries } = setup({ links: new LinkTracker(randomBytes(32), 'https://n.example'), channelLinkTracking: false });
    const page = entries();
    await localizer.localize('development', 'ada', page, 'fr');
    const [body] = page[0].blocks as [{ rendered: string }];
    expect(body.rendered).toContain('href="https://x.example/7"');
    expect(body.rendered).not.toContain('/v1/links/');
  });

  it('keeps a message rendered in a locale for a while: a second read renders nothing again', async () => {
    const { localizer, entries, queries, reads } = setup();
    await localizer.localize('development', 'ada', entries(), 'fr');
    const [q, r] = [queries.length, reads.length];
    const again = entries();
    await localizer.localize('development', 'ada', [again[0]], 'fr');
    expect((again[0].blocks[0] as { content: string }).content).toContain('Bonjour');
    expect([queries.length, reads.length]).toEqual([q, r]);
    // Another locale is another render.
    const english = entries();
    await localizer.localize('development', 'ada', [english[0]], 'en');
    expect((english[0].blocks[0] as { content: string }).content).toContain('Hello');
    expect(queries.length).toBeGreaterThan(q);
  });
});
