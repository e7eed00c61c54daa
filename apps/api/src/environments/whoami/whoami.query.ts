import { Query } from '@nestjs/cqrs';
import { WhoamiResponseT } from '@notify/contracts';

export class WhoamiQuery extends Query<WhoamiResponseT> {
  /** A service token's id, or (kind `member`) a console member's (ADR 0210). */
  constructor(
    readonly serviceTokenId: string,
    readonly kind: 'service' | 'member' = 'service',
  ) {
    super();
  }
}
