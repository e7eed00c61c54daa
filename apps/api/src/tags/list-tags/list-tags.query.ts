import { Query } from '@nestjs/cqrs';
import { listTagsRoute, RouteOutput } from '@notify/contracts';

export class ListTagsQuery extends Query<RouteOutput<typeof listTagsRoute>> {}
