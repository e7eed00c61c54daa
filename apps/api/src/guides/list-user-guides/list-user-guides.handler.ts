import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ServedGuides } from '../served-guides';
import { UserGuides } from '../user-guides';
import { ListUserGuidesQuery } from './list-user-guides.query';

/**
 * The guides of a channel for one user (ADR 0187). `entries` are the guides shown; without
 * `force_all_guides`, `ineligible_guides` names only those the user archived, because a client
 * keeps its markers until it fetches again and would hide a guide that the socket later says is
 * shown (ADR 0165). With `force_all_guides` (the clients' debugging), every guide is an entry and
 * every one not shown has its marker with the reason.
 */
@QueryHandler(ListUserGuidesQuery)
export class ListUserGuidesHandler implements IQueryHandler<ListUserGuidesQuery> {
  constructor(
    private readonly guides: ServedGuides,
    private readonly userGuides: UserGuides,
  ) {}

  async execute({ ctx, userId, channelId, filter }: ListUserGuidesQuery) {
    const environment = ctx.environment;
    const channel = await this.guides.channel(environment, channelId);
    const [all, group] = await Promise.all([
      this.userGuides.evaluate(environment, channel, { userId, ...filter }),
      this.userGuides.group(environment, channel),
    ]);
    const forced = filter.forceAll === true;
    const entries = all.filter((g) => forced || !g.ineligible).map((g) => g.guide);
    const ineligible = all.flatMap((g) => (g.ineligible && (forced || g.ineligible.reason === 'marked_as_archived') ? [g.ineligible] : []));
    // The throttle window starts when the user last dismissed a guide the throttle applies to (ADR 0166).
    const lastDismissed = all
      .filter((g) => !g.guide.bypass_global_group_limit && g.archivedAt !== null)
      .map((g) => g.archivedAt!)
      .sort((a, b) => Date.parse(b) - Date.parse(a))[0];
    const logs: Record<string, string> = group && lastDismissed ? { [group.key]: lastDismissed } : {};
    return { entries, guide_groups: group ? [group] : [], guide_group_display_logs: logs, ineligible_guides: ineligible };
  }
}
