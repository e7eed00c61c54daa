import { Query } from '@nestjs/cqrs';
import { WhoamiResponseT } from '@notify/contracts';

export class WhoamiQuery extends Query<WhoamiResponseT> {
  constructor(readonly serviceTokenId: string) {
    super();
  }
}
