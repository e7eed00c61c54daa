import { Command, Query } from '@nestjs/cqrs';
import { BranchT, MgmtPageInfoT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class ListBranchesQuery extends Query<{ entries: BranchT[]; page_info: MgmtPageInfoT }> {
  constructor(
    readonly environment: string,
    readonly page: { after?: string; before?: string; limit: number },
  ) {
    super();
  }
}

export class GetBranchQuery extends Query<BranchT> {
  constructor(
    readonly environment: string,
    readonly slug: string,
  ) {
    super();
  }
}

export class CreateBranchCommand extends Command<BranchT> {
  constructor(
    readonly ctx: RequestContext,
    readonly slug: string,
  ) {
    super();
  }
}

export class RebaseBranchCommand extends Command<BranchT> {
  constructor(
    readonly ctx: RequestContext,
    readonly slug: string,
  ) {
    super();
  }
}

export class DeleteBranchCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly slug: string,
  ) {
    super();
  }
}
