import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Previews and Liquid checks use the templating engine that delivery uses. */
describe('template previews and Liquid validation', () => {
  let t: TestApp;
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });

  beforeAll(async () => {
    t = await startTestApp();
    await t.http('PUT', '/v1/users/ada', { body: { name: 'Ada', locale: 'fr' } });
    await svc('PUT', '/v1/variables/app_url', { variable: { value: 'https://app.example' } });
    await svc('PUT', '/v1/partials/sig?environment=development', {
      partial: { name: 'Signature', type: 'text', content: '-- {{ team }}' },
    });
    await svc('PUT', '/v1/email_layouts/plain?environment=development', {
      email_layout: { name: 'Plain', html_layout: '<main>{{ content }}</main>', text_layout: '{{ content }}' },
    });
    await svc('PUT', '/v1/translations/fr?environment=development', { translation: { format: 'json', content: '{"hello":"Bonjour"}' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('saves a workflow whose Liquid does not parse with valid: false and the line of the error', async () => {
    const res = await svc('PUT', '/v1/workflows/bad-liquid?environment=development', {
      workflow: {
        name: 'Bad',
        steps: [
          { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi\n{% if recipient.name %}unclosed' } },
        ],
      },
    });
    expect(res.body.workflow).toMatchObject({
      valid: false,
      errors: [
        expect.objectContaining({ field: 'steps.0.template.markdown_body', type: 'template', message: expect.stringMatching(/line \d/) }),
      ],
    });
    const partial = await svc('PUT', '/v1/partials/bad?environment=development', {
      partial: { name: 'Bad', type: 'html', content: '{{ x | no_such_filter }}' },
    });
    expect(partial.body.partial).toMatchObject({ valid: false, errors: [expect.objectContaining({ field: 'content' })] });
    const translation = await svc('PUT', '/v1/translations/de?environment=development', {
      translation: { format: 'json', content: '{"a":"{% if %}"}' },
    });
    expect(translation.status).toBe(200);
    const [row] = await t.sql<{ valid: boolean; errors: { field: string }[] }>(
      `SELECT valid, errors FROM rm_config_resources WHERE resource_type = 'translation' AND identifier = 'de'`,
    );
    expect(row).toMatchObject({ valid: false, errors: [expect.objectContaining({ field: 'content.a' })] });
  });

  it('renders a workflow step for a recipient, with data, vars, translations and partials', async () => {
    await svc('PUT', '/v1/workflows/greet?environment=development', {
      workflow: {
        name: 'Greet',
        steps: [
          {
            type: 'channel',
            ref: 'feed',
            channel_key: 'in-app',
            template: {
              markdown_body: '{{ "hello" | t }} **{{ recipient.name }}**, {{ data.count }} new. {% render "sig", team: "Ops" %}',
              action_url: '{{ vars.app_url }}/x',
            },
          },
        ],
      },
    });
    const res = await svc('POST', '/v1/workflows/greet/steps/feed/preview_template?environment=development', {
      recipient: 'ada',
      data: { count: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: 'success',
      content_type: 'in_app_feed',
      template: {
        markdown_body: 'Bonjour **Ada**, 3 new. -- Ops',
        action_url: 'https://app.example/x',
        html_body: expect.stringContaining('<strong>Ada</strong>'),
      },
    });
  });

  it('renders a template, a partial and a layout without saving anything', async () => {
    const before = (await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c;
    const email = await svc('POST', '/v1/templates/preview?environment=development', {
      channel_type: 'email',
      recipient: 'ada',
      template: { subject: 'Hi {{ recipient.name }}', html_body: '<p>{{ data.html }}</p>', settings: { layout_key: 'plain' } },
      data: { html: '<b>escaped</b>' },
    });
    expect(email.body).toMatchObject({
      result: 'success',
      content_type: 'email',
      template: { subject: 'Hi Ada', html_body: '<main><p>&lt;b&gt;escaped&lt;/b&gt;</p></main>' },
    });
    const broken = await svc('POST', '/v1/templates/preview?environment=development', {
      channel_type: 'sms',
      recipient: 'ada',
      template: { text_body: '{% for %}' },
    });
    expect(broken.body).toMatchObject({ result: 'error', errors: [expect.objectContaining({ field: 'text_body' })] });
    const partial = await svc('POST', '/v1/partials/preview?environment=development', {
      partial: { name: 'P', type: 'markdown', content: '**{{ who }}**' },
      data: { who: 'you' },
    });
    expect(partial.body).toMatchObject({ result: 'success', type: 'markdown', content: expect.stringContaining('<strong>you</strong>') });
    const layout = await svc('POST', '/v1/email_layouts/preview?environment=development', {
      recipient: 'ada',
      email_layout: { name: 'L', html_layout: '<div>{{ recipient.name }}{{ content }}</div>', text_layout: '{{ content }}' },
    });
    expect(layout.body).toMatchObject({ result: 'success', layout: { html_body: expect.stringMatching(/^<div>Ada<p>/) } });
    expect((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c).toBe(before);
  });
});
