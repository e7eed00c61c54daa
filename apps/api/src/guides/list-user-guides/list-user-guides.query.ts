import { Query } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export interface UserGuidesFilter {
  tenant?: string;
  data?: Record<string, unknown>;
  type?: string;
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
