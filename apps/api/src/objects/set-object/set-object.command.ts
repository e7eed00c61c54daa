import { Command } from '@nestjs/cqrs';
import { ObjectT, SetObjectBodyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class SetObjectCommand extends Command<ObjectT> {
  constructor(
    readonly ctx: RequestContext,
    readonly collection: string,
    readonly objectId: string,
    readonly body: SetObjectBodyT,
  ) {
    super();
  }
}
