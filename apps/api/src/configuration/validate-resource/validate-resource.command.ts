import { Command } from '@nestjs/cqrs';
import { ResourceType } from '@notify/domain';
import { RequestContext } from '@notify/http';
import { ResourceIds } from '../shared/resource-kinds';

export class ValidateResourceCommand extends Command<Record<string, unknown>> {
  constructor(
    readonly ctx: RequestContext,
    readonly type: ResourceType,
    readonly ids: ResourceIds,
    readonly body: Record<string, unknown>,
  ) {
    super();
  }
}
