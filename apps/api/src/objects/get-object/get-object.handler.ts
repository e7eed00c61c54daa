import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ObjectT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { ObjectQueries } from '@notify/projections/objects';
import { GetObjectQuery } from './get-object.query';

@QueryHandler(GetObjectQuery)
export class GetObjectHandler implements IQueryHandler<GetObjectQuery> {
  constructor(private readonly objects: ObjectQueries) {}

  async execute({ environment, collection, objectId }: GetObjectQuery): Promise<ObjectT> {
    const object = await this.objects.get(environment, collection, objectId);
    if (!object) throw resourceMissing('object');
    return object;
  }
}
