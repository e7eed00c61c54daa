import { Query } from '@nestjs/cqrs';
import { CommitT } from '@notify/contracts';

export class GetCommitQuery extends Query<CommitT> {
  constructor(readonly id: string) {
    super();
  }
}
