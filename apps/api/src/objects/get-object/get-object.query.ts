import { Query } from '@nestjs/cqrs';
import { ObjectT } from '@notify/contracts';

export class GetObjectQuery extends Query<ObjectT> {
  constructor(
    readonly environment: string,
    readonly collection: string,
    readonly objectId: string,
  ) {
    super();
  }
}
