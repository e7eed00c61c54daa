import { Command } from '@nestjs/cqrs';
import { CreatedSigningKey } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class CreateSigningKeyCommand extends Command<z.input<typeof CreatedSigningKey>> {
  constructor(
    readonly ctx: RequestContext,
    readonly environment: string,
    /** Revoke the environment's other keys in the same step. */
    readonly rotate: boolean,
  ) {
    super();
  }
}
