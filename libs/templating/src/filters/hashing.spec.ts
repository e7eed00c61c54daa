import { TemplateEngine } from '../template-engine';
import { aContext, renderError, renderOk } from '../testing/fixtures';

const engine = new TemplateEngine();
const render = (source: string) => renderOk(engine, source, aContext({ data: { id: 'hello', n: 42 } }));

describe('hashing helpers', () => {
  it.each([
    ['{{ data.id | md5 }}', '5d41402abc4b2a76b9719d911017c592'],
    ['{{ data.id | sha256 }}', '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
    ['{{ data.id | hmac_sha256: "key" }}', '9307b3b915efb5171ff14d8cb55fbcc798c6c0ef1456d66ded1a6aa723a58b7b'],
    ['{{ data.n | md5 }}', 'a1d0c6e83f027327d8461063f4ac58a6'],
    ['{{ data.none | md5 }}', 'd41d8cd98f00b204e9800998ecf8427e'],
  ])('%s', async (source, expected) => {
    expect(await render(source)).toBe(expected);
  });

  it('fails hmac_sha256 without a key', async () => {
    expect(await renderError(engine, '{{ "x" | hmac_sha256 }}')).toMatchObject({
      code: 'template_render',
      message: 'hmac_sha256 needs a key',
    });
    expect((await renderError(engine, '{{ "x" | hmac_sha256: "" }}')).message).toBe('hmac_sha256 needs a key');
  });
});
