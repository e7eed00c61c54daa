import { Command } from '@nestjs/cqrs';
import { BulkOperationKindT, BulkOperationT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export interface BulkRequest {
  kind: BulkOperationKindT;
  collection: string | null;
  items: unknown[];
  /** The entity each item changes, for the batch deduplication limit. */
  entityIds: string[];
}

export class CreateBulkOperationCommand extends Command<{ operation: BulkOperationT; ratelimited: string[] }> {
  constructor(
    readonly ctx: RequestContext,
    readonly request: BulkRequest,
  ) {
    super();
  }
}
