import { Query } from '@nestjs/cqrs';
import { ResourceType } from '@notify/domain';
import { ResourceIds } from '../shared/resource-kinds';

export interface ReadOptions {
  annotate?: boolean;
  hide_uncommitted_changes?: boolean;
  format?: 'json' | 'po';
  /** Lists of workflows, layouts and partials only (ADR 0225). */
  archived?: 'exclude' | 'include' | 'only';
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
