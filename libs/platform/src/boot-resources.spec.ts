import { BootResources } from './boot-resources';

describe('BootResources', () => {
  it('closes what was opened, newest first, once, and goes on past a failing close', async () => {
    const closed: string[] = [];
    const boot = new BootResources();
    boot.opened('database', (r) => void closed.push(r));
    boot.opened('store', () => {
      throw new Error('already gone');
    });
    boot.opened('threads', async (r) => void closed.push(r));
    await boot.closeAll();
    await boot.closeAll();
    expect(closed).toEqual(['threads', 'database']);
  });

  it('closes at once what finishes opening after the boot has failed', async () => {
    const closed: string[] = [];
    const boot = new BootResources();
    await boot.closeAll();
    let done!: () => void;
    const closing = new Promise<void>((resolve) => (done = resolve));
    expect(
      boot.opened('late listener', (r) => {
        closed.push(r);
        done();
      }),
    ).toBe('late listener');
    await closing;
    expect(closed).toEqual(['late listener']);
  });
});
