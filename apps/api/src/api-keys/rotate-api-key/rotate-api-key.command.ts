import { Command } from '@nestjs/cqrs';
import { RotatedApiKeyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class RotateApiKeyCommand extends Command<RotatedApiKeyT> {
  constructor(
    readonly ctx: RequestContext,
    readonly keyId: string,
    readonly overlapSeconds: number,
  ) {
    super();
  }
}
