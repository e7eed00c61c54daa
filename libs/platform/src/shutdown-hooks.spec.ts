import { BeforeApplicationShutdown, Injectable, Module, OnModuleDestroy } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { trackShutdownHooks } from './shutdown-hooks';

let release: () => void = () => undefined;
const released = new Promise<void>((resolve) => (release = resolve));

@Injectable()
class Stuck implements BeforeApplicationShutdown {
  async beforeApplicationShutdown(): Promise<void> {
    await released;
  }
}

@Injectable()
class Quick implements OnModuleDestroy {
  destroyed = false;
  onModuleDestroy(): void {
    this.destroyed = true;
  }
}

@Module({ providers: [Stuck, Quick] })
class AppModule {}

describe('trackShutdownHooks', () => {
  it('names the shutdown hooks a close is still waiting for, and none once they returned', async () => {
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const pending = trackShutdownHooks(app);
    expect(pending()).toEqual([]);
    const closing = app.close();
    // The quick hook ran (and returned) before the stuck one was called.
    for (let i = 0; i < 100 && !pending().length; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(pending()).toEqual(['Stuck.beforeApplicationShutdown']);
    expect(app.get(Quick).destroyed).toBe(true);
    release();
    await closing;
    expect(pending()).toEqual([]);
  });
});
