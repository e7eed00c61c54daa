import { randomBytes } from 'node:crypto';
import { chatMarkupOf, isLinkPreviewer, trackChatJson, trackChatText } from './chat-link-tracking';
import { LinkTracker, trackContentLinks } from './link-tracking';

/** Tracked URLs the test can read back: `T<n>` for the n-th URL tracked, the URLs kept in order. */
function recorder() {
  const seen: string[] = [];
  const link = (url: string) => {
    seen.push(url);
    return `https://t.example/${seen.length}`;
  };
  return { seen, link };
}

describe('chat link tracking', () => {
  it('knows the markup of each chat provider', () => {
    expect(['slack', 'slack-webhook'].map((id) => chatMarkupOf(id))).toEqual(['mrkdwn', 'mrkdwn']);
    expect(['ms-teams', 'ms-teams-webhook', 'mattermost'].map((id) => chatMarkupOf(id))).toEqual(['markdown', 'markdown', 'markdown']);
    expect(chatMarkupOf('discord')).toBe('discord');
    expect(chatMarkupOf('telegram')).toBe('unknown');
    // Telegram's markup is its parse mode: HTML is known; Markdown's labels would need escaping.
    expect(chatMarkupOf('telegram', { parse_mode: 'HTML' })).toBe('html');
    expect(chatMarkupOf('telegram', { parse_mode: 'MarkdownV2' })).toBe('unknown');
    expect(chatMarkupOf('slack', { parse_mode: 'HTML' })).toBe('mrkdwn');
  });

  describe('Slack mrkdwn', () => {
    it('replaces the URL of <url|label> and <url> links, keeping labels, mentions and other angle forms', () => {
      const { seen, link } = recorder();
      const out = trackChatText(
        '*Deploy* done: <https://ci.example/b/1?x=1&amp;y=2|build #1> and <https://ci.example/logs>. <@U123> <#C9|ops> <!here> <mailto:a@b.c|mail>',
        link,
        'mrkdwn',
      );
      expect(seen).toEqual(['https://ci.example/b/1?x=1&y=2', 'https://ci.example/logs']);
      expect(out).toBe(
        '*Deploy* done: <https://t.example/1|build #1> and <https://t.example/2>. <@U123> <#C9|ops> <!here> <mailto:a@b.c|mail>',
      );
    });

    it('makes a bare URL a link labelled with itself; URLs in code stay', () => {
      const { seen, link } = recorder();
      const out = trackChatText(
        'See https://docs.example/a_b. Run `curl https://api.example/x` or\n```\nhttps://in.code/\n```',
        link,
        'mrkdwn',
      );
      expect(seen).toEqual(['https://docs.example/a_b']);
      expect(out).toBe(
        'See <https://t.example/1|https://docs.example/a_b>. Run `curl https://api.example/x` or\n```\nhttps://in.code/\n```',
      );
    });

    it('tracks Block Kit: mrkdwn texts and fields, button and rich-text link URLs, attachment links; plain text, values and images stay', () => {
      const { seen, link } = recorder();
      const payload = {
        text: 'Fallback <https://a.example/fallback|open>',
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: 'Read <https://a.example/doc|the doc>' },
            fields: [{ type: 'mrkdwn', text: 'https://a.example/f' }],
          },
          {
            type: 'section',
            text: { type: 'plain_text', text: 'https://a.example/plain' },
            accessory: { type: 'image', image_url: 'https://img.example/i.png', alt_text: 'i' },
          },
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                text: { type: 'plain_text', text: 'Approve' },
                url: 'https://a.example/approve',
                value: 'https://a.example/value',
              },
              { type: 'overflow', options: [{ text: { type: 'plain_text', text: 'More' }, value: 'm', url: 'https://a.example/more' }] },
            ],
          },
          {
            type: 'rich_text',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'link', url: 'https://a.example/rich', text: 'https://a.example/rich' }] },
            ],
          },
          { type: 'image', image_url: 'https://img.example/big.png', alt_text: 'big' },
        ],
        attachments: [{ title: 'T', title_link: 'https://a.example/title', text: '<https://a.example/att|att>' }],
      };
      const out = trackChatJson(payload, link, 'mrkdwn') as typeof payload;
      expect(seen).toEqual([
        'https://a.example/fallback',
        'https://a.example/doc',
        'https://a.example/f',
        'https://a.example/approve',
        'https://a.example/more',
        'https://a.example/rich',
        'https://a.example/title',
        'https://a.example/att',
      ]);
      expect(out).toEqual({
        text: 'Fallback <https://t.example/1|open>',
        blocks: [
          {
            type: 'section',
            text: { type: 'mrkdwn', text: 'Read <https://t.example/2|the doc>' },
            fields: [{ type: 'mrkdwn', text: '<https://t.example/3|https://a.example/f>' }],
          },
          payload.blocks[1],
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                text: { type: 'plain_text', text: 'Approve' },
                url: 'https://t.example/4',
                value: 'https://a.example/value',
              },
              { type: 'overflow', options: [{ text: { type: 'plain_text', text: 'More' }, value: 'm', url: 'https://t.example/5' }] },
            ],
          },
          {
            type: 'rich_text',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'link', url: 'https://t.example/6', text: 'https://a.example/rich' }] },
            ],
          },
          payload.blocks[4],
        ],
        attachments: [{ title: 'T', title_link: 'https://t.example/7', text: '<https://t.example/8|att>' }],
      });
    });
  });

  describe('Markdown (Microsoft Teams, Discord, Mattermost, Google Chat)', () => {
    it('replaces the URL of [label](url) links, keeping labels (nested images too), titles and parentheses in URLs; images stay', () => {
      const { seen, link } = recorder();
      const out = trackChatText(
        'Open [the **report**](https://r.example/x?a=1&b=2) or [wiki](https://en.wikipedia.org/wiki/Foo_(bar) "Foo"). ![chart](https://img.example/c.png) [![logo](https://img.example/l.png)](https://r.example/home)',
        link,
        'markdown',
      );
      expect(seen).toEqual(['https://r.example/x?a=1&b=2', 'https://en.wikipedia.org/wiki/Foo_(bar)', 'https://r.example/home']);
      expect(out).toBe(
        'Open [the **report**](https://t.example/1) or [wiki](https://t.example/2 "Foo"). ![chart](https://img.example/c.png) [![logo](https://img.example/l.png)](https://t.example/3)',
      );
    });

    it('makes a bare URL a link labelled with itself, leaving sentence punctuation outside', () => {
      const { seen, link } = recorder();
      expect(trackChatText('Status: https://status.example/now! Done, <https://quiet.example/x>', link, 'markdown')).toBe(
        'Status: [https://status.example/now](https://t.example/1)! Done, <https://t.example/2>',
      );
      expect(seen).toEqual(['https://status.example/now', 'https://quiet.example/x']);
    });

    it('tracks an Adaptive Card: TextBlock markdown, Action.OpenUrl and selectAction; images stay', () => {
      const { seen, link } = recorder();
      const card = {
        type: 'AdaptiveCard',
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        body: [
          { type: 'TextBlock', text: 'See [the run](https://ci.example/run/7)', wrap: true },
          { type: 'Image', url: 'https://img.example/a.png', selectAction: { type: 'Action.OpenUrl', url: 'https://ci.example/img' } },
          { type: 'FactSet', facts: [{ title: 'Logs', value: '[logs](https://ci.example/logs)' }] },
        ],
        actions: [{ type: 'Action.OpenUrl', title: 'Open', url: 'https://ci.example/open' }],
      };
      const out = trackChatJson(card, link, 'markdown');
      expect(seen).toEqual(['https://ci.example/run/7', 'https://ci.example/img', 'https://ci.example/logs', 'https://ci.example/open']);
      expect(out).toEqual({
        ...card,
        body: [
          { type: 'TextBlock', text: 'See [the run](https://t.example/1)', wrap: true },
          { type: 'Image', url: 'https://img.example/a.png', selectAction: { type: 'Action.OpenUrl', url: 'https://t.example/2' } },
          { type: 'FactSet', facts: [{ title: 'Logs', value: '[logs](https://t.example/3)' }] },
        ],
        actions: [{ type: 'Action.OpenUrl', title: 'Open', url: 'https://t.example/4' }],
      });
    });

    it('tracks a Discord payload: content, embed url, author url, description and fields, link buttons; images stay', () => {
      const { seen, link } = recorder();
      const payload = {
        content: 'New [release](https://gh.example/r/1)',
        embeds: [
          {
            title: 'v1',
            url: 'https://gh.example/v1',
            description: 'Notes: https://gh.example/notes',
            author: { name: 'bot', url: 'https://gh.example/bot', icon_url: 'https://img.example/bot.png' },
            image: { url: 'https://img.example/shot.png' },
            fields: [{ name: 'Diff', value: '[diff](https://gh.example/diff)' }],
          },
        ],
        components: [{ type: 1, components: [{ type: 2, style: 5, label: 'Open', url: 'https://gh.example/open' }] }],
      };
      const out = trackChatJson(payload, link, 'discord') as typeof payload;
      expect(seen).toEqual([
        'https://gh.example/r/1',
        'https://gh.example/v1',
        'https://gh.example/notes',
        'https://gh.example/bot',
        'https://gh.example/diff',
        'https://gh.example/open',
      ]);
      expect(out.embeds[0]).toMatchObject({
        url: 'https://t.example/2',
        // Discord prints `[https://…](…)` as it is written, so the bare URL is replaced by the tracked one.
        description: 'Notes: https://t.example/3',
        author: { url: 'https://t.example/4', icon_url: 'https://img.example/bot.png' },
        image: { url: 'https://img.example/shot.png' },
        fields: [{ name: 'Diff', value: '[diff](https://t.example/5)' }],
      });
      expect(out.content).toBe('New [release](https://t.example/1)');
      expect(out.components[0].components[0].url).toBe('https://t.example/6');
    });
  });

  it('on Discord, replaces a bare URL by the tracked URL (a label that looks like a URL is not rendered there); links keep their labels', () => {
    const { seen, link } = recorder();
    expect(
      trackChatText(
        'Deployed: https://app.example/d?x=1&amp;y=2. [notes](https://app.example/n) <https://app.example/q> `https://app.example/c`',
        link,
        'discord',
      ),
    ).toBe('Deployed: https://t.example/1. [notes](https://t.example/2) <https://t.example/3> `https://app.example/c`');
    expect(seen).toEqual(['https://app.example/d?x=1&y=2', 'https://app.example/n', 'https://app.example/q']);
  });

  it('leaves bare URLs alone when the markup is not known (Telegram), tracking explicit links and keyboard buttons', () => {
    const { seen, link } = recorder();
    expect(trackChatText('Open [it](https://t.me.example/a) or https://t.me.example/b', link, 'unknown')).toBe(
      'Open [it](https://t.example/1) or https://t.me.example/b',
    );
    expect(
      trackChatJson(
        { reply_markup: { inline_keyboard: [[{ text: 'Go https://x.example', url: 'https://x.example/go' }]] } },
        link,
        'unknown',
      ),
    ).toEqual({
      reply_markup: { inline_keyboard: [[{ text: 'Go https://x.example', url: 'https://t.example/2' }]] },
    });
    expect(seen).toEqual(['https://t.me.example/a', 'https://x.example/go']);
  });

  describe('HTML (Telegram with parse_mode HTML)', () => {
    it('replaces the href of anchors, keeping their text and other attributes; a bare URL becomes an anchor; pre, code and tag attributes stay', () => {
      const { seen, link } = recorder();
      const text = [
        '<b>News</b>: <a href="https://app.example/a?x=1&amp;y=2">read <i>it</i></a>,',
        'see https://app.example/b. <a href="tg://user?id=1">you</a> <a href=\'https://app.example/c\'>c</a>',
        '<code>https://app.example/code</code> <pre><code class="language-sh">curl https://app.example/pre</code></pre>',
        '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji> <span class="tg-spoiler">https://app.example/d</span>',
      ].join('\n');
      expect(trackChatText(text, link, 'html')).toBe(
        [
          '<b>News</b>: <a href="https://t.example/1">read <i>it</i></a>,',
          'see <a href="https://t.example/2">https://app.example/b</a>. <a href="tg://user?id=1">you</a> <a href=\'https://t.example/3\'>c</a>',
          '<code>https://app.example/code</code> <pre><code class="language-sh">curl https://app.example/pre</code></pre>',
          '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji> <span class="tg-spoiler"><a href="https://t.example/4">https://app.example/d</a></span>',
        ].join('\n'),
      );
      // Entities are decoded before tracking; the tracked URL is written back encoded.
      expect(seen).toEqual(['https://app.example/a?x=1&y=2', 'https://app.example/b', 'https://app.example/c', 'https://app.example/d']);
      const amp = trackChatText('https://app.example/e?x=1&amp;y=2', () => 'https://t.example/q?a=1&b=2', 'html');
      expect(amp).toBe('<a href="https://t.example/q?a=1&amp;b=2">https://app.example/e?x=1&amp;y=2</a>');
    });

    it("takes the markup from the channel's parse_mode through trackContentLinks: the text and the payload's text, keyboard buttons too", () => {
      const { seen, link } = recorder();
      const content = {
        channel_type: 'chat' as const,
        connections: [{ channel_id: '-100200' }],
        text: 'Open https://app.example/a',
        summary: null,
        json: { reply_markup: { inline_keyboard: [[{ text: 'Go', url: 'https://app.example/go' }]] } },
      };
      const html = trackContentLinks(content, link, { provider: 'telegram', settings: { bot_token: 'x', parse_mode: 'HTML' } });
      if (html.channel_type !== 'chat') throw new Error('chat content expected');
      expect(html.text).toBe('Open <a href="https://t.example/1">https://app.example/a</a>');
      expect(html.json).toEqual({ reply_markup: { inline_keyboard: [[{ text: 'Go', url: 'https://t.example/2' }]] } });
      // A payload's own parse_mode (sent over the settings) decides too.
      const fromPayload = trackContentLinks({ ...content, json: { parse_mode: 'HTML', text: 'See https://app.example/p' } }, link, {
        provider: 'telegram',
      });
      if (fromPayload.channel_type !== 'chat') throw new Error('chat content expected');
      expect(fromPayload.json).toEqual({ parse_mode: 'HTML', text: 'See <a href="https://t.example/4">https://app.example/p</a>' });
      // Markdown parse modes: bare URLs stay.
      const markdown = trackContentLinks(content, link, { provider: 'telegram', settings: { parse_mode: 'MarkdownV2' } });
      if (markdown.channel_type !== 'chat') throw new Error('chat content expected');
      expect(markdown.text).toBe('Open https://app.example/a');
      expect(seen).toEqual([
        'https://app.example/a',
        'https://app.example/go',
        'https://app.example/a',
        'https://app.example/p',
        'https://app.example/go',
      ]);
    });
  });

  it('tracks a chat message through trackContentLinks with real tracked links, by its provider, text, summary and payload', () => {
    const tracker = new LinkTracker(randomBytes(32), 'https://notify.example');
    const messageId = '7d1c1b1e-8a57-4a3e-9d51-1c0de0000002';
    const link = (url: string) => tracker.urlFor({ environment: 'development', messageId, url });
    const content = {
      channel_type: 'chat' as const,
      connections: [{ channel_id: 'C1' }],
      text: 'Hi <https://app.example/a|app>',
      summary: 'New: https://app.example/s',
      json: { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '<https://app.example/b|b>' } }] },
    };
    const slack = trackContentLinks(content, link, { provider: 'slack' });
    if (slack.channel_type !== 'chat') throw new Error('chat content expected');
    const target = (url: string) => tracker.verify(url.split('/v1/links/')[1])?.url;
    expect(target(/<([^|>]+)\|app>/.exec(slack.text)![1])).toBe('https://app.example/a');
    expect(target(/<([^|>]+)\|https:\/\/app.example\/s>/.exec(slack.summary!)![1])).toBe('https://app.example/s');
    const blockText = (slack.json as { blocks: { text: { text: string } }[] }).blocks[0].text.text;
    expect(target(/<([^|>]+)\|b>/.exec(blockText)![1])).toBe('https://app.example/b');
    expect(slack.connections).toEqual(content.connections);

    // Teams: the summary is plain text there, so its bare URL stays.
    const teams = trackContentLinks({ ...content, text: '[app](https://app.example/a)', json: null }, link, { provider: 'ms-teams' });
    if (teams.channel_type !== 'chat') throw new Error('chat content expected');
    expect(target(/\(([^)]+)\)/.exec(teams.text)![1])).toBe('https://app.example/a');
    expect(teams.summary).toBe('New: https://app.example/s');
  });

  it('recognises link-preview robots of chat apps, which do not count as clicks', () => {
    expect(
      [
        'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
        'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
        'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com',
        'TelegramBot (like TwitterBot)',
        'Mattermost-Bot/1.1',
      ].map(isLinkPreviewer),
    ).toEqual([true, true, true, true, true]);
    expect(
      [undefined, '', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15', 'Slack/4.41 Electron'].map(
        isLinkPreviewer,
      ),
    ).toEqual([false, false, false, false]);
  });
});
