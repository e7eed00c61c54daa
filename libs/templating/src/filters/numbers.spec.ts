import { TemplateEngine } from '../template-engine';
import { aContext, renderError, renderOk } from '../testing/fixtures';

const engine = new TemplateEngine();
const render = (source: string, n: unknown) => renderOk(engine, source, aContext({ data: { n } }));

describe('format_number', () => {
  it.each([
    [10000, '"en"', '10,000'],
    [1234567.891, '"de"', '1.234.567,891'],
    ['2500', '"en-US"', '2,500'],
    [10000, '"fr"', '10\u202f000'],
    [-42.5, '"en"', '-42.5'],
    [10000, '', '10,000'],
    [10000, '"not a locale!"', '10,000'],
    [10000, 'locale: "de"', '10.000'],
  ])('%s with %s', async (n, args, expected) => {
    expect(await render(`{{ data.n | format_number${args ? `: ${args}` : ''} }}`, n)).toBe(expected);
  });

  it.each([['abc'], [''], [true]])('returns %p unchanged', async (n) => {
    expect(await render('{{ data.n | format_number: "en" }}', n)).toBe(String(n));
  });

  it('renders nil as empty', async () => {
    expect(await render('[{{ data.nothing | format_number }}]', 1)).toBe('[]');
  });
});

describe('currency and rounded_currency', () => {
  it.each([
    ['{{ data.n | currency }}', 10, '$10.00'],
    ['{{ data.n | currency: "GBP", "en" }}', 10, '£10.00'],
    ['{{ data.n | currency: "eur", "de" }}', 10, '10,00\u00a0€'],
    ['{{ data.n | currency: "EUR", locale: "fr-FR" }}', 1234.5, '1\u202f234,50\u00a0€'],
    ['{{ data.n | currency: "JPY" }}', 1000, '¥1,000'],
    ['{{ data.n | currency: "USD" }}', '19.999', '$20.00'],
    ['{{ data.n | rounded_currency: "GBP", "en" }}', 10.99, '£11'],
    ['{{ data.n | rounded_currency }}', 10.49, '$10'],
    ['{{ data.n | rounded_currency: "EUR", "de" }}', 1234.5, '1.235\u00a0€'],
  ])('%s with %p', async (source, n, expected) => {
    expect(await render(source, n)).toBe(expected);
  });

  it.each([['ten'], [null]])('returns %p unchanged', async (n) => {
    expect(await render('[{{ data.n | currency: "USD" }}|{{ data.n | rounded_currency }}]', n)).toBe(n === null ? '[|]' : `[${n}|${n}]`);
  });

  it.each(['dollars', 'US', '$'])('fails the currency code %s', async (code) => {
    const error = await renderError(engine, `{{ 10 | currency: "${code}" }}`);
    expect(error).toMatchObject({ code: 'template_render', message: `currency must be a three-letter ISO 4217 code, got "${code}"` });
  });
});
