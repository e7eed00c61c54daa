import { Inject, Injectable } from '@nestjs/common';
import { suppressAddress, unsuppressAddress } from '@notify/application';
import { SuppressionT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { RequestContext } from '@notify/http';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { SuppressionQueries, SuppressionRecord } from '@notify/projections/suppressions';
import { commandMetadata } from '../../shared/command-metadata';

/** The environment's suppression list (ADR 0204): an extension, the reference has no such routes. */
@Injectable()
export class SuppressionsService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly queries: SuppressionQueries,
    private readonly consistency: ReadYourWrites,
  ) {}

  async list(ctx: RequestContext, query: { page_size: number; after?: string; before?: string; reason?: string }) {
    const { rows, pageInfo } = await this.queries.list(ctx.environment!, {
      pageSize: query.page_size,
      after: query.after,
      before: query.before,
      reason: query.reason,
    });
    return { entries: rows.map(present), page_info: pageInfo };
  }

  async add(ctx: RequestContext, address: string, detail: string | null): Promise<SuppressionT> {
    const environment = ctx.environment!;
    const outcome = await suppressAddress(this.store, environment, address, detail, new Date(), commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const found = await this.queries.get(environment, address);
    if (!found) throw resourceMissing('suppression');
    return present(found);
  }

  async remove(ctx: RequestContext, address: string): Promise<void> {
    const outcome = await unsuppressAddress(this.store, ctx.environment!, address, new Date(), commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}

function present(r: SuppressionRecord): SuppressionT {
  return {
    __typename: 'Suppression',
    address: r.address,
    reason: r.reason,
    message_id: r.message_id,
    source: r.source,
    detail: r.detail,
    inserted_at: new Date(r.inserted_at).toISOString(),
  };
}
