import { Command } from '@nestjs/cqrs';
import { IdentifyUserBody, UserT } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class IdentifyUserCommand extends Command<UserT> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly body: z.infer<typeof IdentifyUserBody>,
  ) {
    super();
  }
}
