import { Query } from '@nestjs/cqrs';
import { MgmtPageInfoT } from '@notify/contracts';

/** A list of a resource type this service does not implement yet (audiences, guides). */
export class ListUnimplementedResourcesQuery extends Query<{ entries: never[]; page_info: MgmtPageInfoT }> {
  constructor(readonly pageSize: number) {
    super();
  }
}
