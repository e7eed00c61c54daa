/**
 * What the core opened while an application was being created (the database pool, template
 * threads, tracing). If creating the application fails half-way, Nest hands back no application
 * to close, and these would keep the process alive: the boot closes them itself, newest first.
 * Once the application exists, its own shutdown closes them and this is not used.
 */
export class BootResources {
  private readonly closers: (() => Promise<void> | void)[] = [];
  private failed = false;

  /**
   * Registers `resource` to be closed with `close` should the boot fail; returns it. Nest creates
   * providers concurrently, so one may finish opening after another has already failed the boot:
   * that one is closed at once.
   */
  opened<T>(resource: T, close: (resource: T) => Promise<void> | void): T {
    if (this.failed)
      void Promise.resolve()
        .then(() => close(resource))
        .catch(() => undefined);
    else this.closers.push(() => close(resource));
    return resource;
  }

  /** Closes everything registered (each once, failures ignored: the boot's own error is the one to report). */
  async closeAll(): Promise<void> {
    this.failed = true;
    const closers = this.closers.splice(0).reverse();
    for (const close of closers)
      await Promise.resolve()
        .then(close)
        .catch(() => undefined);
  }
}
