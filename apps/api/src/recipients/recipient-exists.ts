import { Injectable } from '@nestjs/common';
import { RecipientRefT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { ObjectQueries } from '@notify/projections/objects';
import { UserQueries } from '@notify/projections/users';

/** 404s for reads about a user or object that does not exist. */
@Injectable()
export class RecipientExistence {
  constructor(
    private readonly users: UserQueries,
    private readonly objects: ObjectQueries,
  ) {}

  async assert(environment: string, recipient: RecipientRefT): Promise<void> {
    const found =
      recipient.type === 'user'
        ? await this.users.get(environment, recipient.id)
        : await this.objects.get(environment, recipient.collection, recipient.id);
    if (!found) throw resourceMissing(recipient.type);
  }
}
