import type { EventStore, EventToAppend } from '@notify/eventstore';

type Append = (streamId: string, events: readonly EventToAppend[]) => boolean;

/** The store with its `append` wrapped; every other method is the store's own. */
function wrapAppend(
  store: EventStore,
  append: (...args: Parameters<EventStore['append']>) => ReturnType<EventStore['append']>,
): EventStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') return append;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Two writers on one store, as two processes would be (each its own handle, so the in-process
 * per-stream queue of `handleCommand` does not order them): their first appends to `streamId`
 * wait for each other, so both have read and decided on the same state before either appends
 * and one of them meets a concurrent write. No sleeps: it holds whatever the machine's load.
 */
export function racingAppends(store: EventStore, streamId: string): [EventStore, EventStore] {
  let arrived = 0;
  let release!: () => void;
  const both = new Promise<void>((resolve) => (release = resolve));
  const writer = (): EventStore => {
    let first = true;
    return wrapAppend(store, async (...args) => {
      if (args[0] === streamId && first) {
        first = false;
        arrived++;
        if (arrived === 2) release();
        else await both;
      }
      return store.append(...args);
    });
  };
  return [writer(), writer()];
}

/**
 * Appends matching `hold` wait until an append matching `until` has been stored: a write lands
 * between another writer's read and its append, in that order, every time.
 */
export function appendBetween(store: EventStore, hold: Append, until: Append): EventStore {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return wrapAppend(store, async (...args) => {
    if (hold(args[0], args[1])) await done;
    const result = await store.append(...args);
    if (until(args[0], args[1])) release();
    return result;
  });
}
