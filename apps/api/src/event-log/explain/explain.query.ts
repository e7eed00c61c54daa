import { Query } from '@nestjs/cqrs';
import { RunExplanationT } from '@notify/contracts';

export class ExplainQuery extends Query<RunExplanationT> {
  constructor(
    readonly environment: string,
    readonly subject: { runId: string } | { messageId: string },
  ) {
    super();
  }
}
