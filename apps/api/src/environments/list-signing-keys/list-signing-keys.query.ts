import { Query } from '@nestjs/cqrs';
import { SigningKey } from '@notify/contracts';
import { z } from 'zod';

export class ListSigningKeysQuery extends Query<{ entries: z.input<typeof SigningKey>[] }> {
  constructor(readonly environment: string) {
    super();
  }
}
