import { EmailVisualBlock } from './templates';

describe('email visual blocks', () => {
  it('takes an image block only with an absolute URL, as the reference types it', () => {
    expect(EmailVisualBlock.safeParse({ type: 'image', url: 'https://cdn.example.com/logo.png' }).success).toBe(true);
    expect(EmailVisualBlock.safeParse({ type: 'image', url: 'logo.png' }).success).toBe(false);
  });
});
