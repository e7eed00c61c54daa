import { TemplateEngine } from './template-engine';
import { aContext, fakeResources, renderError, renderOk } from './testing/fixtures';

const engine = new TemplateEngine();

describe('TemplateEngine variables', () => {
  const batch = aContext({
    activities: [
      { id: 'act1', data: { comment: 'first' }, actor: { id: 'ian' } },
      { id: 'act2', data: { comment: 'second' }, actor: { id: 'ellie' } },
    ],
    actors: [
      { id: 'ian', name: 'Ian' },
      { id: 'ellie', name: 'Ellie' },
    ],
    total_activities: 7,
    timestamp: '2023-12-31T19:30:00Z',
    current_message: { id: 'msg_1' },
  });

  it.each([
    ['{{ recipient.id }} {{ recipient.name }}', 'jane Jane Doe'],
    ['{{ actor.name }}', 'Ian Malcolm'],
    ['{{ tenant.name }}', 'Acme Corp'],
    ['{{ data.project }} {{ data.count | plus: 1 }}', 'Park 4'],
    ['{{ vars.app_name }} {{ vars.app_url }}', 'Notify https://notify.example'],
    ['{{ workflow.key }}: {{ workflow.categories | join: "," }}', 'welcome: onboarding,product'],
    ['{{ total_activities }}/{{ total_actors }}', '7/2'],
    ['{% for a in activities %}{{ a.data.comment }};{% endfor %}', 'first;second;'],
    ['{{ actors | map: "name" | join: " & " }}', 'Ian & Ellie'],
    ['{{ activities.size }} {{ actors.first.name }}', '2 Ian'],
    ['{{ timestamp }}', '2023-12-31T19:30:00Z'],
    ['{{ current_message.id }}', 'msg_1'],
    ['{{ timezone }} {{ locale }}', 'America/New_York fr-CA'],
  ])('%s', async (source, expected) => {
    expect(await renderOk(engine, source, batch)).toBe(expected);
  });

  it('counts the batch lists when the totals are not given', async () => {
    const context = aContext({ activities: [{}, {}, {}], actors: [{ id: 'a' }] });
    expect(await renderOk(engine, '{{ total_activities }}/{{ total_actors }}', context)).toBe('3/1');
    expect(await renderOk(engine, '{{ total_activities }}/{{ total_actors }}', aContext())).toBe('0/0');
  });

  it('takes timezone and locale from the context before the recipient', async () => {
    const context = aContext({ timezone: 'Europe/Paris', locale: 'de' });
    expect(await renderOk(engine, '{{ timezone }} {{ locale }}', context)).toBe('Europe/Paris de');
  });

  it('renders absent and null variables as empty, and null objects as falsy', async () => {
    const context = aContext({ actor: null, tenant: null, workflow: null, recipient: null });
    expect(await renderOk(engine, '[{{ actor.name }}][{{ data.nope.deeper }}][{{ timezone }}]', context)).toBe('[][][]');
    expect(await renderOk(engine, '{% if actor %}actor{% else %}no actor{% endif %}', context)).toBe('no actor');
  });

  it('does not expose JavaScript prototypes to templates', async () => {
    expect(await renderOk(engine, '[{{ data.constructor }}][{{ data.toString }}][{{ recipient.__proto__ }}]')).toBe('[][][]');
  });

  it('leaves the caller context untouched by assign and increment', async () => {
    const context = aContext();
    await renderOk(engine, '{% assign data = "x" %}{% increment recipient %}{{ data }}', context);
    expect(context.data).toEqual({ project: 'Park', count: 3 });
    expect(context.recipient?.name).toBe('Jane Doe');
  });
});

describe('TemplateEngine HTML escaping', () => {
  const hostile = aContext({ data: { name: `<script>alert("x")</script> & 'friends'`, md: '**bold** <img src=x onerror=alert(1)>' } });

  it('escapes every output in html mode, not the template text itself', async () => {
    const out = await renderOk(engine, '<p class="x">{{ data.name }}</p>', hostile, { escape: 'html' });
    expect(out).toBe('<p class="x">&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;friends&#39;</p>');
  });

  it('escapes the result of filters too', async () => {
    expect(await renderOk(engine, '{{ data.name | upcase }}', hostile, { escape: 'html' })).toContain('&lt;SCRIPT&gt;');
  });

  it('lets `| raw` opt out', async () => {
    expect(await renderOk(engine, '{{ data.name | raw }}', hostile, { escape: 'html' })).toBe(`<script>alert("x")</script> & 'friends'`);
  });

  it('does not escape in none mode (text, SMS, push, chat), the default', async () => {
    expect(await renderOk(engine, '{{ data.name }}', hostile, { escape: 'none' })).toBe(`<script>alert("x")</script> & 'friends'`);
    expect(await renderOk(engine, '{{ data.name }}', hostile)).toBe(`<script>alert("x")</script> & 'friends'`);
  });

  it('keeps sanitized markdown as HTML in html mode', async () => {
    const out = await renderOk(engine, '{{ data.md | from_markdown }}', hostile, { escape: 'html' });
    expect(out).toContain('<strong>bold</strong>');
    expect(out).not.toContain('<img');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('escapes echo (also inside {% liquid %}) and cycle like outputs', async () => {
    const source = '{% echo data.name %}|{% liquid echo data.name %}|{% cycle data.name, "b" %}|{% echo data.name | raw %}';
    const out = await renderOk(engine, source, aContext({ data: { name: '<i>' } }), { escape: 'html' });
    expect(out).toBe('&lt;i&gt;|&lt;i&gt;|&lt;i&gt;|<i>');
  });

  it('escapes assigned values and array items alike', async () => {
    const context = aContext({ data: { list: ['<a>', '<b>'] } });
    expect(await renderOk(engine, '{% assign x = data.list %}{{ x }}|{{ data.list | join: "," }}', context, { escape: 'html' })).toBe(
      '&lt;a&gt;&lt;b&gt;|&lt;a&gt;,&lt;b&gt;',
    );
  });
});

describe('TemplateEngine.render returns errors as values', () => {
  it('reports a syntax error with its position', async () => {
    const error = await renderError(engine, 'Hello\n  {% if %}x{% endif %}');
    expect(error).toMatchObject({ code: 'template_syntax', line: 2, column: 8 });
  });

  it('reports an unknown filter as a syntax error', async () => {
    expect(await renderError(engine, '{{ data.project | shout }}')).toMatchObject({
      code: 'template_syntax',
      message: 'undefined filter: shout',
    });
  });

  it('reports a failing filter as a render error with its position', async () => {
    const error = await renderError(engine, 'ok\n{{ 10 | currency: "dollars" }}');
    expect(error).toMatchObject({ code: 'template_render', line: 2, column: 1 });
    expect(error.message).toContain('three-letter');
  });

  it('never throws, even for a source that is not a string', async () => {
    const result = await engine.render(42 as unknown as string, aContext());
    expect(result).toEqual({ ok: false, error: { code: 'template_syntax', message: 'template must be a string' } });
  });

  it('never throws, even without a context', async () => {
    const result = await engine.render('x', null as unknown as ReturnType<typeof aContext>);
    expect(result.ok).toBe(false);
    const email = await engine.renderEmail(null as never, null as never);
    expect(email.ok).toBe(false);
  });

  it('reports a resource lookup that throws as template_resource', async () => {
    const resources = { ...fakeResources(), partial: async () => Promise.reject(new Error('database is down')) };
    expect(await renderError(engine, '{% render "footer" %}', aContext(), { resources })).toMatchObject({
      code: 'template_resource',
      message: 'loading partial "footer" failed: database is down',
    });
  });

  it('renders the same template many times with the same result (parse cache)', async () => {
    const outputs = await Promise.all(
      ['a', 'b', 'c'].map((p) => renderOk(engine, '{{ data.project }}!', aContext({ data: { project: p } }))),
    );
    expect(outputs).toEqual(['a!', 'b!', 'c!']);
  });
});

describe('TemplateEngine.validate', () => {
  it('accepts a valid template', () => {
    expect(
      engine.validate('Hi {{ recipient.name | default: "there" }} {% render "footer", x: 1 %}{{ "k" | t }}{% t %}Hi{% endt %}'),
    ).toEqual([]);
  });

  it.each([
    ['{% if x %}open', 'template_syntax'],
    ['{{ x | no_such_filter }}', 'template_syntax'],
    ['{% no_such_tag %}', 'template_syntax'],
    ['{% include "footer.html" %}', 'template_syntax'],
    ['{% layout "base" %}', 'template_syntax'],
    ['{% render %}', 'template_syntax'],
    ['{% render "p" with data %}', 'template_syntax'],
    ['{% render "p" for data.items as item %}', 'template_syntax'],
    ['{{ "unclosed }}', 'template_syntax'],
  ])('rejects %s', (source, code) => {
    const errors = engine.validate(source);
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe(code);
    expect(errors[0].line).toBe(1);
  });

  it('reports every top-level error with line and column', () => {
    const errors = engine.validate('ok\n{{ a | nope }}\n\n   {% nothing %}');
    expect(errors).toEqual([
      { code: 'template_syntax', message: 'undefined filter: nope', line: 2, column: 1 },
      { code: 'template_syntax', message: 'tag "nothing" not found', line: 4, column: 4 },
    ]);
  });

  it('rejects a non-string source', () => {
    expect(engine.validate(undefined as unknown as string)[0].code).toBe('template_syntax');
  });
});
