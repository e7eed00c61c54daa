import { EventEmitter } from 'node:events';

/** Fan-out of "something was appended" hints to in-process listeners. */
export class Wakeups {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  notify(): void {
    this.emitter.emit('appended');
  }

  listen(listener: () => void): () => void {
    this.emitter.on('appended', listener);
    return () => this.emitter.off('appended', listener);
  }
}
