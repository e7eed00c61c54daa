import { EventEmitter } from 'node:events';
import type { LogPosition } from './event-store';

/** Fan-out of "something was appended" hints to in-process listeners. */
export class Wakeups {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  /** `appended`: where an append of this process ended, when the hint is about one. */
  notify(appended?: LogPosition): void {
    this.emitter.emit('appended', appended);
  }

  listen(listener: (appended?: LogPosition) => void): () => void {
    this.emitter.on('appended', listener);
    return () => this.emitter.off('appended', listener);
  }
}
