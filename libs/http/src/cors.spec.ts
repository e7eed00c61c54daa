import { allRoutes } from '@notify/contracts';
import { CORS_METHODS } from './http-app';

describe('CORS', () => {
  it('lets a browser send every method a browser-callable route uses', () => {
    // The browser client identifies its user (PUT) and unsets channel data (DELETE).
    const browserMethods = new Set(
      allRoutes()
        .filter((r) => r.auth === 'public')
        .map((r) => r.method),
    );
    expect([...browserMethods]).toEqual(expect.arrayContaining(['PUT', 'DELETE']));
    expect(
      allRoutes()
        .filter((r) => !(CORS_METHODS as readonly string[]).includes(r.method))
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual([]);
  });
});
