import { publicUrlOf } from './public-url';

describe('publicUrlOf', () => {
  it('is PUBLIC_URL when set, without a trailing slash, whatever the request says', () => {
    expect(publicUrlOf('https://notify.example.com/', { protocol: 'http', host: '10.0.0.5:3000' })).toBe('https://notify.example.com');
    expect(publicUrlOf('https://example.com/notify', { protocol: 'http', host: 'internal' })).toBe('https://example.com/notify');
  });

  it("is the request's origin otherwise", () => {
    expect(publicUrlOf(undefined, { protocol: 'https', host: 'api.example.com' })).toBe('https://api.example.com');
    expect(publicUrlOf(undefined, { protocol: 'http', host: '127.0.0.1:8080' })).toBe('http://127.0.0.1:8080');
  });
});
