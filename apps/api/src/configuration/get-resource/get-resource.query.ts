import { Query } from '@nestjs/cqrs';
import { ResourceType } from '@notify/domain';
import { ResourceIds } from '../shared/resource-kinds';

export interface ReadOptions {
  annotate?: boolean;
  hide_uncommitted_changes?: boolean;
  format?: 'json' | 'po';
}

export class GetResourceQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly environment: string,
    readonly type: ResourceType,
    readonly ids: ResourceIds,
    readonly options: ReadOptions,
  ) {
    super();
  }
}
