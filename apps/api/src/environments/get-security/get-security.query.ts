import { Query } from '@nestjs/cqrs';
import { EnvironmentSecurity } from '@notify/contracts';
import { z } from 'zod';

export class GetSecurityQuery extends Query<z.input<typeof EnvironmentSecurity>> {
  constructor(readonly environment: string) {
    super();
  }
}
