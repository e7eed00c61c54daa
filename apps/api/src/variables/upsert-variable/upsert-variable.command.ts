import { Command } from '@nestjs/cqrs';
import { VariableRequest } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class UpsertVariableCommand extends Command<{ variable: Record<string, unknown> }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly variable: z.infer<typeof VariableRequest>,
  ) {
    super();
  }
}
