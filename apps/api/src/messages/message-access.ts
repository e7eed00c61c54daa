import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { MessageT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { RequestContext } from '@notify/http';
import { MessageQueries } from '@notify/projections/messages';

/**
 * Which messages a request may see: those of its environment inside the retention window (in-app
 * ones always), and, for a request made with a user token, only that user's.
 */
@Injectable()
export class MessageAccess {
  constructor(
    readonly messages: MessageQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get retentionDays(): number {
    return this.config.MESSAGE_RETENTION_DAYS;
  }

  visibleTo(ctx: RequestContext, message: MessageT | undefined): message is MessageT {
    return !!message && (ctx.userId === undefined || message.recipient === ctx.userId);
  }

  async get(ctx: RequestContext, id: string): Promise<MessageT> {
    const message = await this.messages.get(ctx.environment, id, this.retentionDays);
    if (!this.visibleTo(ctx, message)) throw resourceMissing('message');
    return message;
  }

  async getMany(ctx: RequestContext, ids: readonly string[]): Promise<MessageT[]> {
    return (await this.messages.getMany(ctx.environment, ids, this.retentionDays)).filter((m) => this.visibleTo(ctx, m));
  }
}
