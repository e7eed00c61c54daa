import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@notify/database';
import { SharedLogReader } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { DATABASE, LOG_READER } from '@notify/platform';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { GUIDE_NOTIFY_CHANNEL, GUIDE_NOTIFY_MAX_AGE_MS, GuideNotification } from '@notify/projections/config-resources';
import { EventEmitter } from 'node:events';
import { ChannelListener, tailLogPages } from './signal-sources';

/**
 * A guide changed (`key`), or the guide group (`group`), or, with neither, anything may have
 * changed while the api was not listening.
 */
export interface GuideSignal {
  environment?: string;
  key?: string;
  group?: boolean;
  /** Users whose properties or audience memberships changed: every guide, for them only. */
  users?: string[];
}

const GUIDE_EVENTS = ['GuideUpserted', 'GuideActivated', 'GuideDeactivated', 'GuideArchived', 'GuideGroupUpdated', 'CommitPromoted'];
const AUDIENCE_EVENTS = ['UserIdentified', 'AudienceMembersAdded', 'AudienceMembersRemoved'];

/**
 * Changed guides, heard by every api instance (ADR 0165), as new feed messages are (ADR 0077):
 * LISTEN on the channel the config-resources projection NOTIFYs on commit. After a lost
 * connection, a signal without a key tells the sockets to read every guide again (guides are few;
 * no catch-up from the log is needed). The embedded database has no LISTEN: there the process's
 * own tail of the log is read, and a change is announced once the projections have passed it.
 */
@Injectable()
export class GuideSignals implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly emitter = new EventEmitter();
  private readonly listener: ChannelListener;
  private stopped = false;
  private stopTail?: () => void;
  /** Fires at the next start or end of a guide's activation window (nothing else announces those). */
  private windowTimer?: NodeJS.Timeout;
  /** Window boundaries up to this instant have been announced. */
  private windowsAnnouncedTo = Date.now();

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(LOG_READER) private readonly reader: SharedLogReader,
    private readonly runtime: ProjectionRuntime,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.emitter.setMaxListeners(0);
    this.listener = new ChannelListener({
      database,
      channel: GUIDE_NOTIFY_CHANNEL,
      name: 'notify-guide-signals',
      logger,
      onNotification: (payload) => {
        const note = JSON.parse(payload) as GuideNotification;
        if (note.u) this.emit({ environment: note.e, users: note.u });
        else if (note.g !== undefined) this.emit({ environment: note.e, group: true });
        else this.emit({ environment: note.e, key: note.k });
      },
      // What changed while the connection was lost was not heard: every socket reads its guides again.
      onListening: async (again) => {
        if (again) this.emit({});
      },
    });
  }

  listen(listener: (signal: GuideSignal) => void): () => void {
    this.emitter.on('signal', listener);
    return () => this.emitter.off('signal', listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.database.supportsNotify) await this.listener.start();
    else
      this.stopTail = tailLogPages(
        this.reader,
        (after) => this.announcePage(after),
        (error) => this.logger.warn({ err: error }, 'guide signal tail failed'),
      );
    await this.scheduleWindows();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.windowTimer);
    this.stopTail?.();
    await this.listener.stop();
  }

  private emit(signal: GuideSignal): void {
    this.emitter.emit('signal', signal);
    // A guide activated, changed or deactivated may have moved the next window boundary.
    if (!signal.users) void this.scheduleWindows();
  }

  /**
   * A guide activated with `active_from` / `active_until` starts or stops being shown at that
   * instant without any event: a timer set to the earliest boundary ahead announces the guides
   * whose window opened or closed, as a change of them, and is set again. The process's clock
   * decides, as it does when a guide's eligibility is evaluated.
   */
  private async scheduleWindows(): Promise<void> {
    if (this.stopped) return;
    try {
      const [row] = await this.database.dataSource.query<{ at: Date | null }[]>(
        `SELECT min(t) AS at FROM rm_config_resources r, LATERAL (VALUES (r.active_from), (r.active_until)) AS w(t)
          WHERE r.resource_type = 'guide' AND r.active AND w.t > $1`,
        [new Date(this.windowsAnnouncedTo)],
      );
      clearTimeout(this.windowTimer);
      this.windowTimer = undefined;
      if (!row?.at || this.stopped) return;
      // Timers wait at most about 24 days; a later boundary is looked at again then.
      const delay = Math.min(Math.max(0, new Date(row.at).getTime() - Date.now()), 2 ** 31 - 1);
      this.windowTimer = setTimeout(() => void this.announceWindows(), delay);
      this.windowTimer.unref();
    } catch (error) {
      this.logger.warn({ err: error }, 'reading guide activation windows failed');
    }
  }

  private async announceWindows(): Promise<void> {
    const from = this.windowsAnnouncedTo;
    const to = Date.now();
    try {
      const rows = await this.database.dataSource.query<{ environment: string; identifier: string }[]>(
        `SELECT environment, identifier FROM rm_config_resources r
          WHERE r.resource_type = 'guide' AND r.active
            AND ((r.active_from > $1 AND r.active_from <= $2) OR (r.active_until > $1 AND r.active_until <= $2))`,
        [new Date(from), new Date(to)],
      );
      this.windowsAnnouncedTo = to;
      for (const row of rows) this.emitter.emit('signal', { environment: row.environment, key: row.identifier });
    } catch (error) {
      this.logger.warn({ err: error }, 'announcing guide activation windows failed');
    }
    await this.scheduleWindows();
  }

  /** Reads one page of guide and audience events after `after` and announces the guides they change; answers how far it looked. */
  private async announcePage(after: string): Promise<string> {
    const page = await this.reader.readAll({ after, filter: { eventTypes: [...GUIDE_EVENTS, ...AUDIENCE_EVENTS] }, maxCount: 500 });
    const recentSince = Date.now() - GUIDE_NOTIFY_MAX_AGE_MS;
    // Users whose properties or audience memberships changed: their guides, for them only, one
    // signal per environment for the page (as the users and audience-members projections
    // announce them over NOTIFY, per transaction).
    const users = new Map<string | undefined, Set<string>>();
    const userEvents: typeof page.events = [];
    for (const event of page.events) {
      if (event.createdAt.getTime() < recentSince) continue;
      const environment = event.metadata.environment ?? undefined;
      const changed = usersChangedBy(event);
      if (changed) {
        userEvents.push(event);
        const set = users.get(environment) ?? new Set<string>();
        for (const id of changed) set.add(id);
        users.set(environment, set);
        continue;
      }
      const data = event.data as { key?: string; resource?: { type: string; identifier: string } };
      const key = event.type === 'CommitPromoted' ? (data.resource?.type === 'guide' ? data.resource.identifier : undefined) : data.key;
      if (!key) continue;
      await this.runtime.waitFor(event.position, [event], 10_000);
      this.emit({ environment, key });
    }
    if (userEvents.length > 0) {
      await this.runtime.waitFor(userEvents[userEvents.length - 1].position, userEvents, 10_000);
      for (const [environment, ids] of users) if (ids.size > 0) this.emit({ environment, users: [...ids] });
    }
    return page.scannedTo;
  }
}

/** The users an audience event changes the guides of (undefined for a guide event). */
function usersChangedBy(event: { type: string; data: unknown }): string[] | undefined {
  if (event.type === 'UserIdentified') return [(event.data as { user_id: string }).user_id];
  if (event.type === 'AudienceMembersAdded' || event.type === 'AudienceMembersRemoved')
    return (event.data as { members: { user_id: string }[] }).members.map((m) => m.user_id);
  return undefined;
}
