import KnockMgmt from '@knocklabs/mgmt';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Partials, email layouts, translations and message types through the official management client. */
describe('partials, layouts, translations and message types (management API)', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  const env = { environment: 'development' };
  const countEvents = async () => Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('upserts, validates and reads back a partial', async () => {
    const partial = {
      name: 'Footer',
      type: 'html' as const,
      content: '<p>Sent to {{ recipient.email }}</p>',
      description: 'Legal footer',
      visual_block_enabled: true,
    };
    const { partial: saved } = await mgmt.partials.upsert('footer', { ...env, partial });
    expect(saved).toMatchObject({ key: 'footer', ...partial, valid: true, environment: 'development' });
    expect((await mgmt.partials.validate('footer', { ...env, partial: { ...partial, name: 'Footer 2' } })).partial.name).toBe('Footer 2');
    expect(await mgmt.partials.retrieve('footer', env)).toMatchObject({
      key: 'footer',
      name: 'Footer',
      content: partial.content,
      inserted_at: expect.any(String),
    });
    const keys: string[] = [];
    for await (const p of mgmt.partials.list(env)) keys.push(p.key);
    expect(keys).toEqual(['footer']);
  });

  it('upserts and reads back an email layout, and a workflow can use it', async () => {
    const layout = {
      name: 'Transactional',
      html_layout: '<html><body>{{ content }}</body></html>',
      text_layout: '{{ content }}',
      footer_links: [{ text: 'Help', url: 'https://example.com/help' }],
    };
    const { email_layout: saved } = await mgmt.emailLayouts.upsert('transactional', { ...env, email_layout: layout });
    expect(saved).toMatchObject({ key: 'transactional', ...layout, environment: 'development', sha: expect.any(String) });
    expect(await mgmt.emailLayouts.retrieve('transactional', env)).toMatchObject({ key: 'transactional', html_layout: layout.html_layout });
    const valid = await mgmt.emailLayouts.validate('transactional', { ...env, email_layout: { ...layout, name: 'T2' } });
    expect(valid.email_layout.name).toBe('T2');

    const before = await countEvents();
    const bad = await svc('PUT', '/v1/email_layouts/broken?environment=development', {
      email_layout: { name: 'Broken', html_layout: '<html></html>', text_layout: 'x' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['email_layout.html_layout', 'email_layout.text_layout']);
    expect(await countEvents()).toBe(before);
  });

  it('upserts translations in json and po formats, per namespace and per tenant', async () => {
    const json = await mgmt.translations.upsert('en', {
      ...env,
      namespace: 'billing',
      translation: { format: 'json', content: JSON.stringify({ invoice: { paid: 'Invoice paid' } }) },
    });
    expect(json.translation).toMatchObject({ locale_code: 'en', namespace: 'billing', format: 'json', environment: 'development' });
    const po = 'msgid "greeting"\nmsgstr "Bonjour"\n\nmsgctxt "invoice"\nmsgid "paid"\nmsgstr "Facture payée"\n';
    await svc('PUT', '/v1/translations/fr?environment=development&namespace=billing', { translation: { format: 'po', content: po } });
    await svc('PUT', '/v1/translations/fr?environment=development&namespace=billing&tenant=acme', {
      translation: { format: 'json', content: '{"greeting":"Salut"}' },
    });

    const read = await mgmt.translations.retrieve('fr', { ...env, namespace: 'billing' } as never);
    expect(read.translation).toMatchObject({ locale_code: 'fr', namespace: 'billing', format: 'po', content: po });
    const asJson = await svc('GET', '/v1/translations/fr?environment=development&namespace=billing&format=json');
    expect(JSON.parse(asJson.body.translation.content)).toEqual({ greeting: 'Bonjour', 'invoice.paid': 'Facture payée' });
    const tenant = await svc('GET', '/v1/translations/fr?environment=development&namespace=billing&tenant=acme');
    expect(tenant.body.translation).toMatchObject({ tenant: 'acme', content: '{"greeting":"Salut"}' });

    const fr: string[] = [];
    for await (const tr of mgmt.translations.list({ ...env, locale_code: 'fr' } as never))
      fr.push(`${tr.locale_code}/${tr.namespace}/${(tr as { tenant?: string }).tenant ?? ''}`);
    expect(fr.sort()).toEqual(['fr/billing/', 'fr/billing/acme']);

    const before = await countEvents();
    const badJson = await svc('PUT', '/v1/translations/de?environment=development', {
      translation: { format: 'json', content: '{"oops":' },
    });
    const badPo = await svc('PUT', '/v1/translations/de?environment=development', {
      translation: { format: 'po', content: 'msgid "a"\nmsgstr unquoted' },
    });
    const badLocale = await svc('PUT', '/v1/translations/English?environment=development', {
      translation: { format: 'json', content: '{}' },
    });
    for (const res of [badJson, badPo, badLocale]) expect(res.status).toBe(422);
    expect(badPo.body.errors[0]).toMatchObject({ field: 'translation.content', message: expect.stringContaining('line 2') });
    expect(await countEvents()).toBe(before);
  });

  it('upserts and reads back a message type', async () => {
    const messageType = {
      name: 'Banner',
      description: 'A dismissible banner',
      preview: '<div>{{ title }}</div>',
      variants: [
        { key: 'default', name: 'Default', fields: [{ type: 'text', key: 'title', label: 'Title', settings: { required: true } }] },
      ],
    };
    const { message_type: saved } = await mgmt.messageTypes.upsert('banner', { ...env, message_type: messageType as never });
    expect(saved).toMatchObject({ key: 'banner', name: 'Banner', owner: 'user', semver: '1.0.0', valid: true, environment: 'development' });
    expect(await mgmt.messageTypes.retrieve('banner', env)).toMatchObject({
      key: 'banner',
      variants: [expect.objectContaining({ key: 'default' })],
    });
  });

  it('annotates partials and layouts so the CLI extracts their content into files', async () => {
    const partial = await svc('GET', '/v1/partials/footer?environment=development&annotate=true');
    expect(partial.body.__annotation.extractable_fields).toEqual({ content: { default: true, file_ext: 'html' } });
    const layout = await svc('GET', '/v1/email_layouts/transactional?environment=development&annotate=true');
    expect(Object.keys(layout.body.__annotation.extractable_fields)).toEqual(['html_layout', 'text_layout']);
  });
});
