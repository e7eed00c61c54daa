import { LogPosition, ReadAllPage } from '@notify/eventstore';

/**
 * Reads pages of the log one ahead: while the caller applies a page, the next one (from where
 * that page stopped) is already being read, so the database reads and the applying overlap. For
 * loops that go through the log page after page (rebuilds); a page asked for from anywhere else
 * is read then, and the page read ahead is dropped.
 */
export class ReadAhead {
  private next: { after: LogPosition; page: Promise<ReadAllPage> } | undefined;

  /**
   * `worthReadingAhead` says whether a page suggests there is more to read right away (default:
   * it moved at all); a loop that follows a live log reads ahead only after a full page, so being
   * caught up costs no extra read per page.
   */
  constructor(
    private readonly read: (after: LogPosition) => Promise<ReadAllPage>,
    private readonly worthReadingAhead: (page: ReadAllPage) => boolean = () => true,
  ) {}

  /** The page after `after`, and the start of the read of the one after it. */
  async page(after: LogPosition): Promise<ReadAllPage> {
    const pending = this.next?.after === after ? this.next.page : this.read(after);
    if (this.next && this.next.after !== after) this.next.page.catch(() => undefined);
    this.next = undefined;
    const page = await pending;
    if (page.scannedTo > after && this.worthReadingAhead(page)) {
      const ahead = this.read(page.scannedTo);
      // Awaited by the next call or by close(); a failure is reported there, never unhandled.
      ahead.catch(() => undefined);
      this.next = { after: page.scannedTo, page: ahead };
    }
    return page;
  }

  /** Drops the page read ahead, once its read has finished (nothing is left running). */
  async close(): Promise<void> {
    const next = this.next;
    this.next = undefined;
    await next?.page.catch(() => undefined);
  }
}
