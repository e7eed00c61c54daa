import { TemplateEngine } from '../template-engine';
import { aContext, fakeResources, renderError, renderOk } from '../testing/fixtures';

const engine = new TemplateEngine();
const resources = () =>
  fakeResources({
    users: { chris: { id: 'chris', name: 'Chris', email: 'chris@example.com' } },
    objects: { 'projects/proj_1': { id: 'proj_1', collection: 'projects', name: 'Raptor pen' } },
    tenants: { acme: { id: 'acme', name: 'Acme' } },
    subscriptions: {
      jane: Array.from({ length: 30 }, (_, i) => ({ object: { id: `obj_${i}` }, properties: { role: i === 0 ? 'owner' : 'member' } })),
    },
  });

const render = (source: string, r = resources()) =>
  renderOk(engine, source, aContext({ data: { other: 'chris', project: 'proj_1' } }), { resources: r });

describe('dynamic data filters', () => {
  it('loads a user', async () => {
    expect(await render('{% assign u = data.other | user %}{{ u.name }} <{{ u.email }}>')).toBe('Chris <chris@example.com>');
  });

  it('loads an object of a collection', async () => {
    expect(await render('{% assign p = data.project | object: "projects" %}{{ p.name }}')).toBe('Raptor pen');
  });

  it('loads a tenant', async () => {
    expect(await render('{% assign t = "acme" | tenant %}{{ t.name }}')).toBe('Acme');
  });

  it('loads at most 25 subscriptions', async () => {
    expect(
      await render(
        '{% assign subs = recipient.id | subscriptions %}{{ subs.size }} {{ subs.first.object.id }} {{ subs.first.properties.role }}',
      ),
    ).toBe('25 obj_0 owner');
  });

  it('gives nil for what does not exist, and for an empty id', async () => {
    expect(
      await render(
        '{% assign u = "nobody" | user %}{% if u == nil %}none{% endif %}|{% assign o = "x" | object: "projects" %}[{{ o.name }}]|{% assign e = data.none | tenant %}[{{ e }}]',
      ),
    ).toBe('none|[]|[]');
    expect(await render('{% assign s = "nobody" | subscriptions %}{{ s.size }}')).toBe('0');
  });

  it('loads each entity once per render', async () => {
    const r = resources();
    await render('{% for i in (1..3) %}{% assign u = "chris" | user %}{{ u.name }}{% endfor %}', r);
    expect(r.calls).toEqual(['user:chris']);
  });

  it('fails the object filter without a collection', async () => {
    const error = await renderError(engine, '{% assign o = "proj_1" | object %}', aContext(), { resources: resources() });
    expect(error).toMatchObject({ code: 'template_render', message: 'the object filter needs a collection' });
  });

  it.each(['user', 'tenant', 'subscriptions'])('fails %s when the caller gave no lookup for it', async (name) => {
    const error = await renderError(engine, `{% assign x = "a" | ${name} %}`, aContext(), { resources: fakeResources() });
    expect(error).toMatchObject({
      code: 'template_render',
      message: `the ${name} filter is not available here (no ${name} lookup was provided)`,
    });
  });

  it('reports a failing lookup as template_resource', async () => {
    const r = { ...fakeResources(), user: async () => Promise.reject(new Error('timeout')) };
    expect(await renderError(engine, '{% assign u = "chris" | user %}', aContext(), { resources: r })).toMatchObject({
      code: 'template_resource',
      message: 'loading user "chris" failed: timeout',
    });
  });
});
