import { Controller, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  bulkAddSubscriptionsRoute,
  bulkCreateSchedulesRoute,
  bulkDeleteObjectsRoute,
  bulkDeleteSubscriptionsRoute,
  bulkDeleteTenantsRoute,
  bulkDeleteUsersRoute,
  bulkIdentifyUsersRoute,
  bulkSetObjectsRoute,
  bulkSetTenantsRoute,
  bulkSetUserPreferencesRoute,
  RouteInput,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, ratelimitedHeader, RequestContext } from '@notify/http';
import { FastifyReply } from 'fastify';
import { randomUUID } from 'node:crypto';
import { withProgressUrl } from '../progress-url';
import { BulkRequest, CreateBulkOperationCommand } from './create-bulk-operation.command';

/** Every bulk endpoint: each turns its body into items and one entity id per item. */
@Controller()
export class CreateBulkOperationController {
  constructor(private readonly commands: CommandBus) {}

  private async create(ctx: RequestContext, reply: FastifyReply, request: BulkRequest, param: string) {
    const { operation, ratelimited } = await this.commands.execute(new CreateBulkOperationCommand(ctx, request));
    if (ratelimited.length) void reply.header(ratelimitedHeader(param), ratelimited.join(','));
    return withProgressUrl(operation, reply.request.publicUrl);
  }

  @Endpoint(bulkCreateSchedulesRoute)
  createSchedules(
    @Input() { body }: RouteInput<typeof bulkCreateSchedulesRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // Each item creates a new schedule: no two items are updates of one entity.
    return this.create(
      ctx,
      reply,
      { kind: 'schedules.create', collection: null, items: body.schedules, entityIds: body.schedules.map(() => randomUUID()) },
      'schedule-ids',
    );
  }

  @Endpoint(bulkIdentifyUsersRoute)
  identifyUsers(
    @Input() { body }: RouteInput<typeof bulkIdentifyUsersRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create(
      ctx,
      reply,
      { kind: 'users.identify', collection: null, items: body.users, entityIds: body.users.map((u) => u.id) },
      'user-ids',
    );
  }

  @Endpoint(bulkDeleteUsersRoute)
  deleteUsers(
    @Input() { body }: RouteInput<typeof bulkDeleteUsersRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create(ctx, reply, { kind: 'users.delete', collection: null, items: body.user_ids, entityIds: body.user_ids }, 'user-ids');
  }

  @Endpoint(bulkSetUserPreferencesRoute)
  setUserPreferences(
    @Input() { body }: RouteInput<typeof bulkSetUserPreferencesRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { id, ...preferences } = body.preferences;
    const items = body.user_ids.map((user_id) => ({ user_id, preference_set_id: id ?? 'default', preferences }));
    return this.create(ctx, reply, { kind: 'users.preferences', collection: null, items, entityIds: body.user_ids }, 'user-ids');
  }

  @Endpoint(bulkSetObjectsRoute)
  setObjects(
    @Input() { params, body }: RouteInput<typeof bulkSetObjectsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create(
      ctx,
      reply,
      { kind: 'objects.set', collection: params.collection, items: body.objects, entityIds: body.objects.map((o) => o.id) },
      'object-ids',
    );
  }

  @Endpoint(bulkDeleteObjectsRoute)
  deleteObjects(
    @Input() { params, body }: RouteInput<typeof bulkDeleteObjectsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create(
      ctx,
      reply,
      { kind: 'objects.delete', collection: params.collection, items: body.object_ids, entityIds: body.object_ids },
      'object-ids',
    );
  }

  @Endpoint(bulkAddSubscriptionsRoute)
  addSubscriptions(
    @Input() { params, body }: RouteInput<typeof bulkAddSubscriptionsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const request = {
      kind: 'objects.subscriptions.add' as const,
      collection: params.collection,
      items: body.subscriptions,
      entityIds: body.subscriptions.map((s) => s.id),
    };
    return this.create(ctx, reply, request, 'object-ids');
  }

  @Endpoint(bulkDeleteSubscriptionsRoute)
  deleteSubscriptions(
    @Input() { params, body }: RouteInput<typeof bulkDeleteSubscriptionsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const request = {
      kind: 'objects.subscriptions.delete' as const,
      collection: params.collection,
      items: body.subscriptions,
      entityIds: body.subscriptions.map((s) => s.id),
    };
    return this.create(ctx, reply, request, 'object-ids');
  }

  @Endpoint(bulkSetTenantsRoute)
  setTenants(
    @Input() { body }: RouteInput<typeof bulkSetTenantsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const entityIds = body.tenants.map((t) => (typeof t === 'string' ? t : t.id));
    return this.create(ctx, reply, { kind: 'tenants.set', collection: null, items: body.tenants, entityIds }, 'tenant-ids');
  }

  @Endpoint(bulkDeleteTenantsRoute)
  deleteTenants(
    @Input() { query }: RouteInput<typeof bulkDeleteTenantsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return this.create(
      ctx,
      reply,
      { kind: 'tenants.delete', collection: null, items: query.tenant_ids, entityIds: query.tenant_ids },
      'tenant-ids',
    );
  }
}
