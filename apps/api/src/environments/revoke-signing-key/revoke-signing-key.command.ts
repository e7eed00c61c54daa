import { Command } from '@nestjs/cqrs';
import { SigningKey } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class RevokeSigningKeyCommand extends Command<z.input<typeof SigningKey>> {
  constructor(
    readonly ctx: RequestContext,
    readonly environment: string,
    readonly signingKeyId: string,
  ) {
    super();
  }
}
