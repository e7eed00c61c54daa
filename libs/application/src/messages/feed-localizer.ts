import { RecipientRefT, walkSteps, WorkflowStepT } from '@notify/contracts';
import { WorkflowTriggeredData, workflowRunStream } from '@notify/domain';
import type { EventStore } from '@notify/eventstore';
import { MessageQueries } from '@notify/projections/messages';
import type { TemplateRenderer } from '@notify/templating';
import type { DataSource } from 'typeorm';
import type { ReadModelLookups } from '../engine/read-model-lookups';
import { renderChannelContent } from '../engine/steps/channel-content';
import { channelTemplateContext, refToProperties, runVariables } from '../engine/variables';
import { LinkTracker, trackContentLinks } from './link-tracking';

/** What of a feed entry a re-render replaces. */
export interface LocalizableEntry {
  id: string;
  blocks: unknown[];
}

interface MessageRow {
  id: string;
  workflow_run_id: string;
  step_ref: string;
  channel_key: string | null;
  data: Record<string, unknown> | null;
  tenant: string | null;
  actors: RecipientRefT[];
  total_activities: number;
  total_actors: number;
}

/** How long a message re-rendered in a locale is kept, and how many are. */
const KEEP_MS = 60_000;
const KEPT = 5_000;

/**
 * Feed entries in another locale than the one they were rendered in: each message's in-app
 * template, from the workflow as its run was triggered with (the snapshot in WorkflowTriggered,
 * so a later change of the workflow does not change old messages), is rendered again with the
 * same data, actors and activities, the recipient's current profile and the environment's
 * variables, in the asked locale; links are tracked as they were at creation. An entry whose
 * template no longer renders keeps its original blocks. Renders are kept for a minute per
 * message and locale (ADR 0073).
 */
export class FeedLocalizer {
  private readonly kept = new Map<string, { at: number; blocks: unknown[] }>();
  private readonly messages: MessageQueries;

  constructor(
    private readonly db: DataSource,
    private readonly store: EventStore,
    private readonly lookups: ReadModelLookups,
    private readonly engine: TemplateRenderer,
    private readonly links: LinkTracker | null,
    private readonly onError: (messageId: string, reason: string) => void = () => undefined,
  ) {
    this.messages = new MessageQueries(db);
  }

  async localize(environment: string, userId: string, entries: LocalizableEntry[], locale: string): Promise<void> {
    const now = Date.now();
    const missing = entries.filter((e) => {
      const hit = this.kept.get(this.key(environment, e.id, locale));
      if (hit && now - hit.at < KEEP_MS) e.blocks = hit.blocks;
      return !(hit && now - hit.at < KEEP_MS);
    });
    if (missing.length === 0) return;
    // One page's entries share actors, tenants and variables: each is read once.
    const lookups = this.lookups.forBatch();
    const ids = missing.map((e) => e.id);
    const [rows, activities, recipient, vars] = await Promise.all([
      this.db.query<MessageRow[]>(
        'SELECT id, workflow_run_id, step_ref, channel_key, data, tenant, actors, total_activities, total_actors FROM rm_messages WHERE environment = $1 AND id = ANY($2::uuid[])',
        [environment, ids],
      ),
      this.messages.activitiesOf(environment, ids),
      lookups.recipient(environment, { type: 'user', id: userId }),
      lookups.vars(environment),
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const triggers = await this.triggers(environment, [...new Set(rows.map((r) => r.workflow_run_id))]);
    const properties: Record<string, unknown> = { ...(recipient?.properties ?? refToProperties({ type: 'user', id: userId })), locale };
    for (const entry of missing) {
      const row = byId.get(entry.id);
      const trigger = row && triggers.get(row.workflow_run_id);
      if (!row || !trigger) continue;
      const found = walkSteps(trigger.workflow.steps as WorkflowStepT[]).find(({ step }) => step.ref === row.step_ref)?.step as
        { template?: Record<string, unknown>; channel_overrides?: Record<string, unknown> } | undefined;
      if (!found?.template) continue;
      const [actor, tenant] = await Promise.all([
        trigger.actor ? lookups.recipient(environment, trigger.actor) : undefined,
        row.tenant ? lookups.tenant(environment, row.tenant) : undefined,
      ]);
      const variables = runVariables({
        data: row.data ?? {},
        trigger,
        recipient: properties,
        actor: actor?.properties ?? refToProperties(trigger.actor),
        tenant: tenant ?? (row.tenant ? { id: row.tenant } : null),
        vars,
      });
      const context = channelTemplateContext(variables, {
        activities: activities.get(row.id) ?? [],
        actors: row.actors,
        total_activities: row.total_activities,
        total_actors: row.total_actors,
      });
      const rendered = await renderChannelContent(
        this.engine,
        { type: 'in_app_feed', settings: {} },
        found.template,
        {},
        context,
        lookups.templateResources(environment, { tenant: row.tenant }),
      );
      if (!rendered.ok) {
        this.onError(row.id, rendered.reason);
        continue;
      }
      // Tracked as the message was at send: the channel's `link_tracking` (step overrides
      // included), else the service default.
      const channel = this.links && row.channel_key ? await lookups.channelByKey(environment, row.channel_key) : undefined;
      const channelSettings = { ...(channel?.settings?.channel_settings ?? {}), ...(found.channel_overrides ?? {}) };
      const links = this.links?.tracksLinks(channelSettings) ? this.links : null;
      const content = links
        ? trackContentLinks(rendered.content, (url) => links.urlFor({ environment, messageId: row.id, url }))
        : rendered.content;
      if (content.channel_type !== 'in_app_feed') continue;
      entry.blocks = content.blocks;
      this.keep(this.key(environment, row.id, locale), content.blocks);
    }
  }

  private key(environment: string, messageId: string, locale: string): string {
    return `${environment}\u0000${messageId}\u0000${locale}`;
  }

  private keep(key: string, blocks: unknown[]): void {
    this.kept.delete(key);
    this.kept.set(key, { at: Date.now(), blocks });
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
  }

  /** The WorkflowTriggered data of each run (the workflow as it was triggered): a run stream's first event. */
  private async triggers(environment: string, runIds: string[]): Promise<Map<string, WorkflowTriggeredData>> {
    const out = new Map<string, WorkflowTriggeredData>();
    await Promise.all(
      runIds.map(async (id) => {
        const [first] = await this.store.readStream(workflowRunStream(environment, id), { maxCount: 1 });
        if (first?.type === 'WorkflowTriggered') out.set(id, first.data as WorkflowTriggeredData);
      }),
    );
    return out;
  }
}
