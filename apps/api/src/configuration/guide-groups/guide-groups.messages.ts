import { Command, Query } from '@nestjs/cqrs';
import { GuideGroupConfigT, GuideGroupRequestT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class GetGuideGroupQuery extends Query<GuideGroupConfigT> {
  constructor(
    readonly environment: string,
    readonly key: string,
  ) {
    super();
  }
}

export class SetGuideGroupCommand extends Command<{ guide_group: GuideGroupConfigT }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly settings: GuideGroupRequestT,
  ) {
    super();
  }
}
