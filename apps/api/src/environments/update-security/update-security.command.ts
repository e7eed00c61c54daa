import { Command } from '@nestjs/cqrs';
import { EnvironmentSecurity } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class UpdateSecurityCommand extends Command<z.input<typeof EnvironmentSecurity>> {
  constructor(
    readonly ctx: RequestContext,
    readonly environment: string,
    readonly enhancedSecurityMode: boolean,
  ) {
    super();
  }
}
