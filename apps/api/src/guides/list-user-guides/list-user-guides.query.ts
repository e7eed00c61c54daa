import { Query } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export interface UserGuidesFilter {
  tenant?: string;
  data?: Record<string, unknown>;
  type?: string;
  /** Every guide as an entry, each one not shown with its reason (the clients' debugging). */
  forceAll?: boolean;
}

export class ListUserGuidesQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly channelId: string,
    readonly filter: UserGuidesFilter,
  ) {
    super();
  }
}
