import { TemplateEngine } from './template-engine';
import { aContext, fakeResources, renderError, renderOk } from './testing/fixtures';
import { localeChain, splitTranslationKey } from './translations';

const engine = new TemplateEngine();

const translations = {
  en: {
    OrderReady: 'Your order is ready.',
    OnlyInEnglish: 'English only',
    like: '{{ actorName }} liked {{ photoTitle }}!',
    orders: { shipping: { zero: 'No orders shipping.', one: 'One order shipping.', other: '{{ count }} orders shipping.' } },
    customers: { orders: { survey: 'How was your order?' } },
    'dotted.key': 'flat key with dots',
    Greeting: 'Hello <b>{{ name }}</b>',
    'Have you received your order?': 'Have you received your order?',
    notString: { nested: 'x' },
    badTemplate: 'Hi {{ name | nope }}',
  },
  fr: {
    OrderReady: 'Votre commande est prête.',
    OnlyInFrench: 'Seulement en français',
    'Have you received your order?': 'Avez-vous reçu votre commande, {{ recipient.name }} ?',
  },
  'fr-CA': { OrderReady: 'Votre commande est prête, mon ami.' },
  'en:shipping': { canceled: 'Your shipment has been canceled.' },
  'fr:shipping': { canceled: 'Votre envoi a été annulé.' },
  'en:payments': { canceled: 'Your payment was canceled.' },
  ru: { items: { one: '{{ count }} предмет', few: '{{ count }} предмета', many: '{{ count }} предметов', other: '{{ count }} предмета' } },
};

const withLocale = (locale: string | null) => aContext({ recipient: { id: 'jane', name: 'Jane', locale } });
const render = (source: string, locale: string | null = 'fr-CA', escape?: 'html' | 'none') =>
  renderOk(engine, source, withLocale(locale), { resources: fakeResources({ translations }), escape });

describe('the t filter', () => {
  it.each([
    ['fr-CA', 'Votre commande est prête, mon ami.'],
    ['fr', 'Votre commande est prête.'],
    ['fr-BE', 'Votre commande est prête.'],
    ['en', 'Your order is ready.'],
    ['de', 'Your order is ready.'],
    [null, 'Your order is ready.'],
    ['not a locale!', 'Your order is ready.'],
  ])('in locale %s picks the closest translation', async (locale, expected) => {
    expect(await render('{{ "OrderReady" | t }}', locale)).toBe(expected);
  });

  it('falls back key by key: region, then language, then the default locale', async () => {
    expect(await render('{{ "OnlyInFrench" | t }} / {{ "OnlyInEnglish" | t }}', 'fr-CA')).toBe('Seulement en français / English only');
  });

  it('uses the context locale before the recipient one', async () => {
    const context = aContext({ locale: 'fr', recipient: { id: 'x', locale: 'en' } });
    expect(await renderOk(engine, '{{ "OrderReady" | t }}', context, { resources: fakeResources({ translations }) })).toBe(
      'Votre commande est prête.',
    );
  });

  it('interpolates the parameters it is given', async () => {
    expect(await render('{{ "like" | t: actorName: actor.name, photoTitle: "Sunset" }}', 'en')).toBe('Ian Malcolm liked Sunset!');
  });

  it('interpolates with the parameters only, not the template scope', async () => {
    expect(await render('{% assign photoTitle = "outer" %}{{ "like" | t: actorName: "A" }}', 'en')).toBe('A liked !');
  });

  it('chooses plural forms by count', async () => {
    const out = await render(
      '{{ "orders.shipping" | t: count: 0 }}|{{ "orders.shipping" | t: count: 1 }}|{{ "orders.shipping" | t: count: data.count }}',
      'en',
    );
    expect(out).toBe('No orders shipping.|One order shipping.|3 orders shipping.');
  });

  it('uses the language plural rules when the translation has their categories', async () => {
    expect(await render('{{ "items" | t: count: 3 }}, {{ "items" | t: count: 5 }}, {{ "items" | t: count: 1 }}', 'ru')).toBe(
      '3 предмета, 5 предметов, 1 предмет',
    );
  });

  it('reads nested keys with dots, and flat keys that contain dots', async () => {
    expect(await render('{{ "customers.orders.survey" | t }} / {{ "dotted.key" | t }}', 'en')).toBe(
      'How was your order? / flat key with dots',
    );
  });

  it('reads namespaces as "namespace:key", with the same locale fallback', async () => {
    expect(await render('{{ "shipping:canceled" | t }} / {{ "payments:canceled" | t }}', 'fr-CA')).toBe(
      'Votre envoi a été annulé. / Your payment was canceled.',
    );
  });

  it('can be followed by other filters', async () => {
    expect(await render('{{ "OrderReady" | t | upcase }}', 'en')).toBe('YOUR ORDER IS READY.');
  });

  it('is text: escaped in html mode, trusted with | raw', async () => {
    const source = '{{ "Greeting" | t: name: data.name }}|{{ "Greeting" | t: name: data.name | raw }}';
    const context = aContext({ locale: 'en', data: { name: 'Ann & Bo' } });
    const out = await renderOk(engine, source, context, { resources: fakeResources({ translations }), escape: 'html' });
    expect(out).toBe('Hello &lt;b&gt;Ann &amp; Bo&lt;/b&gt;|Hello <b>Ann & Bo</b>');
  });

  it('loads each locale and namespace once per render', async () => {
    const resources = fakeResources({ translations });
    await renderOk(engine, '{{ "OnlyInEnglish" | t }}{{ "OnlyInEnglish" | t }}{{ "shipping:canceled" | t }}', withLocale('fr-CA'), {
      resources,
    });
    expect(resources.calls).toEqual([
      'translation:fr-CA',
      'translation:fr',
      'translation:en',
      'translation:fr-CA:shipping',
      'translation:fr:shipping',
    ]);
  });

  it('fails a key that no locale has, naming the locales tried', async () => {
    const error = await renderError(engine, 'a\n{{ "Nope" | t }}', withLocale('fr-CA'), { resources: fakeResources({ translations }) });
    expect(error).toEqual({
      code: 'template_missing_translation',
      message: 'no translation for "Nope" (locales tried: fr-CA, fr, en)',
      line: 2,
      column: 1,
    });
  });

  it('fails when there are no translations at all', async () => {
    expect((await renderError(engine, '{{ "OrderReady" | t }}')).code).toBe('template_missing_translation');
  });

  it('fails a key that names a group of translations', async () => {
    const error = await renderError(engine, '{{ "notString" | t }}', withLocale('en'), { resources: fakeResources({ translations }) });
    expect(error).toMatchObject({ code: 'template_render' });
    expect(error.message).toContain('is not a string');
  });

  it('fails a translation that is not a valid template', async () => {
    const error = await renderError(engine, '{{ "badTemplate" | t: name: "x" }}', withLocale('en'), {
      resources: fakeResources({ translations }),
    });
    expect(error.code).toBe('template_render');
    expect(error.message).toBe('translation "badTemplate" is not a valid template: undefined filter: nope');
  });

  it('fails an empty key', async () => {
    expect((await renderError(engine, '{{ data.none | t }}', withLocale('en'), { resources: fakeResources({ translations }) })).code).toBe(
      'template_render',
    );
  });
});

describe('the t tag', () => {
  const source = '<p>{% t %}Have you received your order?{% endt %}</p>';

  it('renders the translation of its content, in the template scope', async () => {
    expect(await render(source, 'fr-CA')).toBe('<p>Avez-vous reçu votre commande, Jane ?</p>');
  });

  it('renders its own content when no locale has it', async () => {
    expect(await render('{% t %}Untranslated {{ recipient.name }}{% endt %}', 'fr')).toBe('Untranslated Jane');
    expect(await renderOk(engine, '{% t %}No resources{% endt %}')).toBe('No resources');
  });

  it('escapes outputs inside it in html mode, not its text', async () => {
    const context = aContext({ recipient: { id: 'j', name: '<i>J</i>', locale: 'fr' } });
    const out = await renderOk(engine, source, context, { resources: fakeResources({ translations }), escape: 'html' });
    expect(out).toBe('<p>Avez-vous reçu votre commande, &lt;i&gt;J&lt;/i&gt; ?</p>');
  });

  it('must be closed', () => {
    expect(engine.validate('{% t %}open')[0]).toMatchObject({ code: 'template_syntax', message: 'tag {% t %} not closed' });
  });
});

describe('translation helpers', () => {
  it.each([
    ['fr-CA', 'en', ['fr-CA', 'fr', 'en']],
    ['fr_ca', 'en', ['fr-CA', 'fr', 'en']],
    ['en', 'en', ['en']],
    [null, 'en-GB', ['en-GB', 'en']],
    ['!!', 'en', ['en']],
  ])('localeChain(%s, %s)', (locale, fallback, expected) => {
    expect(localeChain(locale, fallback)).toEqual(expected);
  });

  it('splits namespaces at the first colon only', () => {
    expect(splitTranslationKey('a:b:c')).toEqual({ namespace: 'a', key: 'b:c' });
    expect(splitTranslationKey('plain')).toEqual({ key: 'plain' });
    expect(splitTranslationKey(':lead')).toEqual({ key: ':lead' });
  });

  it('validates every string of a translation object', () => {
    expect(engine.validateTranslation({ ok: 'Hi {{ name }}', group: { bad: '{{ x | nope }}' }, n: 3 as unknown as string })).toEqual([
      { code: 'template_syntax', message: 'undefined filter: nope', line: 1, column: 1, field: 'group.bad' },
      { code: 'template_syntax', message: 'translation values must be strings or objects', field: 'n' },
    ]);
  });
});
