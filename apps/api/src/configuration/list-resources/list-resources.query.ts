import { Query } from '@nestjs/cqrs';
import { ResourceType } from '@notify/domain';
import { ReadOptions } from '../get-resource/get-resource.query';

export class ListResourcesQuery extends Query<{
  entries: Record<string, unknown>[];
  page_info: { after: string | null; before: string | null; page_size: number };
}> {
  constructor(
    readonly environment: string,
    readonly type: ResourceType,
    readonly page: { after?: string; before?: string; limit: number },
    readonly options: ReadOptions,
    /** Narrows on fields of the resource, e.g. a translation's locale_code. */
    readonly where: Record<string, string | undefined> = {},
    /** Only resources carrying this tag. */
    readonly tag?: string,
  ) {
    super();
  }
}
