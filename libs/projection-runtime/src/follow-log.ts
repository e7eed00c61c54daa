import { LogReader, Sleeper } from '@notify/eventstore';

/** A subscriber loop that can be stopped, with the error of its last failed batch if any. */
export interface FollowingLoop {
  stop: () => Promise<void>;
  lastError?: string;
}

/**
 * Runs `step` (one batch of a projection or reactor) until stopped: again at once while it finds
 * work, otherwise after a short sleep that an append to the log cuts short (the wake-up is only a
 * hint; the step reads from its checkpoint). Failed batches are retried with a growing backoff.
 */
export function followLog(
  store: Pick<LogReader, 'onAppended'>,
  step: () => Promise<{ idle: boolean }>,
  onError: (error: unknown) => void,
): FollowingLoop {
  const sleeper = new Sleeper();
  let stopped = false;
  let hinted = false;
  const unlisten = store.onAppended(() => {
    hinted = true;
    sleeper.wake();
  });
  const state: FollowingLoop = { stop: async () => undefined };
  const done = (async () => {
    let backoff = 0;
    while (!stopped) {
      const woken = hinted;
      hinted = false;
      try {
        const result = await step();
        state.lastError = undefined;
        if (!result.idle) {
          backoff = 0;
          continue;
        }
        backoff = woken || backoff === 0 ? 5 : Math.min(backoff * 2, 1000);
      } catch (error) {
        state.lastError = (error as Error).message;
        onError(error);
        backoff = Math.min(Math.max(backoff * 2, 200), 10_000);
      }
      if (!hinted) await sleeper.sleep(backoff);
    }
  })();
  state.stop = async () => {
    stopped = true;
    unlisten();
    sleeper.wake();
    await done;
  };
  return state;
}
