import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { BulkOperationT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { BulkOperationQueries } from '@notify/projections/bulk-operations';
import { GetBulkOperationQuery } from './get-bulk-operation.query';

@QueryHandler(GetBulkOperationQuery)
export class GetBulkOperationHandler implements IQueryHandler<GetBulkOperationQuery> {
  constructor(private readonly operations: BulkOperationQueries) {}

  async execute({ environment, id }: GetBulkOperationQuery): Promise<BulkOperationT> {
    const operation = await this.operations.get(environment, id);
    if (!operation) throw resourceMissing('bulk operation');
    return operation;
  }
}
