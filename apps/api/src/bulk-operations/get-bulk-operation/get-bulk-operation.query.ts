import { Query } from '@nestjs/cqrs';
import { BulkOperationT } from '@notify/contracts';

export class GetBulkOperationQuery extends Query<BulkOperationT> {
  constructor(
    readonly environment: string,
    readonly id: string,
  ) {
    super();
  }
}
