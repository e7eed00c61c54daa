import { Query } from '@nestjs/cqrs';
import { ListSchedulesResponse, RecipientRefT } from '@notify/contracts';
import { z } from 'zod';

export class ListRecipientSchedulesQuery extends Query<z.infer<typeof ListSchedulesResponse>> {
  constructor(
    readonly environment: string,
    readonly recipient: RecipientRefT,
    readonly pageSize: number,
  ) {
    super();
  }
}
