import { Query } from '@nestjs/cqrs';
import { ListMessagesResponse, RecipientRefT } from '@notify/contracts';
import { z } from 'zod';

export class ListRecipientMessagesQuery extends Query<z.infer<typeof ListMessagesResponse>> {
  constructor(
    readonly environment: string,
    readonly recipient: RecipientRefT,
    readonly pageSize: number,
  ) {
    super();
  }
}
