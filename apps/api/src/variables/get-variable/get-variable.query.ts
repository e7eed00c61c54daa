import { Query } from '@nestjs/cqrs';

export class GetVariableQuery extends Query<Record<string, unknown>> {
  constructor(readonly key: string) {
    super();
  }
}
