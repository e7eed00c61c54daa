import { Controller, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  archiveMessageRoute,
  batchMessageRoutes,
  markMessageInteractedRoute,
  markMessageReadRoute,
  markMessageSeenRoute,
  markMessageUnreadAltRoute,
  markMessageUnreadRoute,
  markMessageUnseenAltRoute,
  markMessageUnseenRoute,
  MessageEngagementActionT,
  RouteInput,
  unarchiveMessageAltRoute,
  unarchiveMessageRoute,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, ratelimitedHeader, RequestContext } from '@notify/http';
import { FastifyReply } from 'fastify';
import { EngageMessagesCommand } from './engage-message.command';

type One = { params: { message_id: string } };
type Many = { body: { message_ids: string[]; metadata?: Record<string, unknown> | null } };

@Controller()
export class EngageMessageController {
  constructor(private readonly commands: CommandBus) {}

  private async one(ctx: RequestContext, id: string, action: MessageEngagementActionT, metadata?: Record<string, unknown> | null) {
    const { messages } = await this.commands.execute(new EngageMessagesCommand(ctx, [id], action, false, metadata));
    return messages[0];
  }

  private async many(ctx: RequestContext, reply: FastifyReply, input: Many, action: MessageEngagementActionT) {
    const { messages, ratelimited } = await this.commands.execute(
      new EngageMessagesCommand(ctx, input.body.message_ids, action, true, input.body.metadata),
    );
    if (ratelimited.length) void reply.header(ratelimitedHeader('message_ids'), ratelimited.join(','));
    return messages;
  }

  @Endpoint(markMessageSeenRoute)
  seen(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'seen');
  }

  @Endpoint(markMessageUnseenRoute)
  unseen(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'unseen');
  }

  @Endpoint(markMessageUnseenAltRoute)
  unseenAlt(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'unseen');
  }

  @Endpoint(markMessageReadRoute)
  read(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'read');
  }

  @Endpoint(markMessageUnreadRoute)
  unread(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'unread');
  }

  @Endpoint(markMessageUnreadAltRoute)
  unreadAlt(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'unread');
  }

  @Endpoint(archiveMessageRoute)
  archive(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'archived');
  }

  @Endpoint(unarchiveMessageRoute)
  unarchive(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'unarchived');
  }

  @Endpoint(unarchiveMessageAltRoute)
  unarchiveAlt(@Input() { params }: One, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'unarchived');
  }

  @Endpoint(markMessageInteractedRoute)
  interacted(@Input() { params, body }: RouteInput<typeof markMessageInteractedRoute>, @Ctx() ctx: RequestContext) {
    return this.one(ctx, params.message_id, 'interacted', body?.metadata ?? null);
  }

  @Endpoint(batchMessageRoutes.seen)
  batchSeen(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'seen');
  }

  @Endpoint(batchMessageRoutes.unseen)
  batchUnseen(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'unseen');
  }

  @Endpoint(batchMessageRoutes.read)
  batchRead(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'read');
  }

  @Endpoint(batchMessageRoutes.unread)
  batchUnread(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'unread');
  }

  @Endpoint(batchMessageRoutes.archived)
  batchArchived(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'archived');
  }

  @Endpoint(batchMessageRoutes.unarchived)
  batchUnarchived(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'unarchived');
  }

  @Endpoint(batchMessageRoutes.interacted)
  batchInteracted(@Input() input: Many, @Ctx() ctx: RequestContext, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.many(ctx, reply, input, 'interacted');
  }
}
