import fs from 'node:fs';
import { NO_FILE_SYSTEM } from './no-file-system';
import { TemplateEngine } from './template-engine';
import { aContext, fakeResources, renderError } from './testing/fixtures';

const engine = new TemplateEngine();

describe('no file system access', () => {
  const reads: jest.SpyInstance[] = [];
  // The first template error makes jest load its source-map support (through fs); do that before
  // the spies watch, so they see only what the engine reads.
  beforeAll(async () => {
    await renderError(engine, '{% include "warm-up" %}');
  });
  beforeEach(() => {
    reads.push(
      jest.spyOn(fs, 'readFile'),
      jest.spyOn(fs, 'readFileSync'),
      jest.spyOn(fs.promises, 'readFile'),
      jest.spyOn(fs, 'statSync'),
      jest.spyOn(fs, 'stat'),
    );
  });
  afterEach(() => {
    reads.splice(0).forEach((spy) => spy.mockRestore());
  });
  const noFileRead = () => reads.forEach((spy) => expect(spy).not.toHaveBeenCalled());

  it.each([
    ['{% include "package.json" %}', 'the include tag is not supported'],
    ['{% include "/etc/passwd" %}', 'the include tag is not supported'],
    ['{% layout "package.json" %}x', 'the layout tag is not supported'],
  ])('refuses %s at parse time', async (source, message) => {
    const error = await renderError(engine, source);
    expect(error.code).toBe('template_syntax');
    expect(error.message).toContain(message);
    noFileRead();
  });

  it.each(['/etc/passwd', '../../package.json', 'package.json', 'file:///etc/passwd'])(
    'treats {%% render "%s" %%} as a partial key, asked of the resources only',
    async (path) => {
      const resources = fakeResources();
      const error = await renderError(engine, `{% render "${path}" %}`, aContext(), { resources });
      expect(error).toMatchObject({ code: 'template_missing_partial', message: `partial "${path}" not found` });
      expect(resources.calls).toEqual([`partial:${path}`]);
      noFileRead();
    },
  );

  it('gives liquidjs a file system that refuses everything', async () => {
    await expect(NO_FILE_SYSTEM.readFile('package.json')).rejects.toThrow('file system access is disabled');
    expect(() => NO_FILE_SYSTEM.readFileSync('package.json')).toThrow('file system access is disabled');
    expect(() => NO_FILE_SYSTEM.resolve('.', 'package.json', '')).toThrow('file system access is disabled');
    await expect(NO_FILE_SYSTEM.exists('package.json')).resolves.toBe(false);
    expect(NO_FILE_SYSTEM.existsSync('package.json')).toBe(false);
  });
});
