import { TemplateEngine } from '../template-engine';
import { aContext, renderError, renderOk } from '../testing/fixtures';

const engine = new TemplateEngine();
const at = (value: unknown) => aContext({ data: { at: value } });
const render = (source: string, value: unknown = '2023-12-31T19:30:00Z') => renderOk(engine, source, at(value));

describe('timezone', () => {
  it.each([
    ['2024-01-01T00:30:00Z', 'America/New_York', '2023-12-31T19:30:00-05:00'],
    ['2024-07-01T12:00:00Z', 'America/New_York', '2024-07-01T08:00:00-04:00'],
    ['2024-01-01T00:30:00Z', 'Asia/Kolkata', '2024-01-01T06:00:00+05:30'],
    ['2024-01-01T00:30:00Z', 'America/St_Johns', '2023-12-31T21:00:00-03:30'],
    ['2024-01-01T00:30:00.999Z', 'UTC', '2024-01-01T00:30:00+00:00'],
    [1704069000, 'Europe/Paris', '2024-01-01T01:30:00+01:00'],
  ])('%s in %s', async (value, zone, expected) => {
    expect(await render(`{{ data.at | timezone: "${zone}" }}`, value)).toBe(expected);
  });

  it('uses the timezone variable (the recipient one) when given it', async () => {
    expect(await render('{{ data.at | timezone: timezone }}', '2024-01-01T00:30:00Z')).toBe('2023-12-31T19:30:00-05:00');
  });

  it('defaults to UTC', async () => {
    expect(await render('{{ data.at | timezone }}', '2024-01-01T00:30:00-02:00')).toBe('2024-01-01T02:30:00+00:00');
  });

  it('returns what is not a date unchanged, and nil as empty', async () => {
    expect(await render('{{ data.at | timezone: "UTC" }}', 'not a date')).toBe('not a date');
    expect(await render('[{{ data.nothing | timezone: "UTC" }}]')).toBe('[]');
  });

  it('fails an unknown zone', async () => {
    expect(await renderError(engine, '{{ data.at | timezone: "Mars/Olympus" }}', at('2024-01-01T00:00:00Z'))).toMatchObject({
      code: 'template_render',
      message: 'unknown timezone "Mars/Olympus"',
    });
  });
});

describe('date (extended with a timezone)', () => {
  it.each([
    ['{{ data.at | date: "%-I:%M %p %Z", "America/New_York" }}', '2:30 PM EST'],
    ['{{ data.at | date: "%-I:%M %p %Z" }}', '7:30 PM UTC'],
    ['{{ data.at | date: "%Y-%m-%d %H:%M", "Asia/Tokyo" }}', '2024-01-01 04:30'],
    ['{{ data.at | date: "%b %d, %Y" }}', 'Dec 31, 2023'],
    ['{{ data.at | date: "%Z", timezone }}', 'EST'],
  ])('%s', async (source, expected) => {
    expect(await render(source)).toBe(expected);
  });

  it('names summer time', async () => {
    expect(await render('{{ data.at | date: "%H:%M %Z", "America/New_York" }}', '2024-07-01T12:00:00Z')).toBe('08:00 EDT');
  });

  it('reads Unix seconds', async () => {
    expect(await render('{{ data.at | date: "%Y-%m-%d" }}', 1704069000)).toBe('2024-01-01');
  });

  it('returns what is not a date unchanged', async () => {
    expect(await render('{{ data.at | date: "%Y" }}', 'soon')).toBe('soon');
  });

  it('fails an unknown zone', async () => {
    expect((await renderError(engine, '{{ data.at | date: "%H", "Nowhere/Land" }}', at('2024-01-01T00:00:00Z'))).message).toBe(
      'unknown timezone "Nowhere/Land"',
    );
  });
});

describe('format_date_in_locale', () => {
  it.each([
    ['en-US', 'short', '12/31/23'],
    ['en-US', 'medium', 'Dec 31, 2023'],
    ['en-US', 'long', 'December 31, 2023'],
    ['en-US', 'full', 'Sunday, December 31, 2023'],
    ['en-GB', 'short', '31/12/2023'],
    ['en-GB', 'medium', '31 Dec 2023'],
    ['en-GB', 'long', '31 December 2023'],
    ['en-GB', 'full', 'Sunday, 31 December 2023'],
    ['fr', 'long', '31 décembre 2023'],
  ])('%s %s', async (locale, style, expected) => {
    expect(await render(`{{ data.at | format_date_in_locale: "${locale}", "${style}" }}`)).toBe(expected);
  });

  it('defaults to the short style and, without a usable locale, to the default locale', async () => {
    expect(await render('{{ data.at | format_date_in_locale: "en-GB" }}')).toBe('31/12/2023');
    expect(await render('{{ data.at | format_date_in_locale }}')).toBe('12/31/23');
    expect(await render('{{ data.at | format_date_in_locale: "??", "long" }}')).toBe('December 31, 2023');
  });

  it('takes the locale variable or a named locale', async () => {
    expect(await render('{{ data.at | format_date_in_locale: locale, "long" }}')).toBe('31 décembre 2023');
    expect(await render('{{ data.at | format_date_in_locale: locale: "de", date_format: "long" }}')).toBe('31. Dezember 2023');
  });

  it('formats in UTC unless given a zone', async () => {
    expect(await render('{{ data.at | format_date_in_locale: "en-GB", "long", "Asia/Tokyo" }}')).toBe('1 January 2024');
  });

  it('returns what is not a date unchanged', async () => {
    expect(await render('{{ data.at | format_date_in_locale: "en" }}', 'yesterday-ish')).toBe('yesterday-ish');
  });

  it('fails an unknown style', async () => {
    const error = await renderError(engine, '{{ data.at | format_date_in_locale: "en", "tiny" }}', at('2024-01-01T00:00:00Z'));
    expect(error.message).toBe('date_format must be one of short, medium, long, full, got "tiny"');
  });
});

describe('format_datetime_in_locale', () => {
  const value = '2023-12-31T14:30:45Z';
  it.each([
    ['"en-GB", "medium", "short"', '31 Dec 2023, 14:30'],
    ['"en-US", "short", "short"', '12/31/23, 2:30 PM'],
    ['"en-US", "medium", "medium"', 'Dec 31, 2023, 2:30:45 PM'],
    ['"en-US", "long", "long", "America/New_York"', 'December 31, 2023 at 9:30:45 AM EST'],
    ['"en-GB", "full", "full"', 'Sunday, 31 December 2023 at 14:30:45 Coordinated Universal Time'],
    ['"en-US"', '12/31/23, 2:30 PM'],
  ])('%s', async (args, expected) => {
    expect(await render(`{{ data.at | format_datetime_in_locale: ${args} }}`, value)).toBe(expected);
  });

  it('fails an unknown time style', async () => {
    expect((await renderError(engine, '{{ data.at | format_datetime_in_locale: "en", "short", "huge" }}', at(value))).message).toContain(
      'time_format must be one of',
    );
  });

  it('returns what is not a date unchanged', async () => {
    expect(await render('{{ data.at | format_datetime_in_locale: "en" }}', 'n/a')).toBe('n/a');
  });
});
