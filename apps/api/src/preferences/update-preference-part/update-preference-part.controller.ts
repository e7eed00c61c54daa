import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { GranularPart, granularPreferenceRoutes as routes, PreferenceSetRequestT, RecipientRefT, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { SetPreferenceSetCommand } from '../set-preference-set/set-preference-set.command';

/** The merge request a granular update makes: `{subscribed}` is the boolean setting. */
export function granularRequest(part: GranularPart): PreferenceSetRequestT {
  if ('all' in part) return { __persistence_strategy__: 'merge', [part.field]: part.all };
  const setting = 'subscribed' in part.body ? part.body.subscribed : part.body;
  return { __persistence_strategy__: 'merge', [part.field]: { [part.key]: setting } };
}

type U = typeof routes.user;
type O = typeof routes.object;
const user = (p: { user_id: string }): RecipientRefT => ({ type: 'user', id: p.user_id });
const object = (p: { collection: string; object_id: string }): RecipientRefT => ({
  type: 'object',
  collection: p.collection,
  id: p.object_id,
});

/**
 * Granular preference updates (per workflow, category, channel type; the reference's deprecated
 * routes): each merges one part into the preference set through the same command as
 * `PUT .../preferences/{id}`, and answers the whole set.
 */
@Controller()
export class UpdatePreferencePartController {
  constructor(private readonly commands: CommandBus) {}

  private set(ctx: RequestContext, recipient: RecipientRefT, id: string, part: GranularPart) {
    return this.commands.execute(new SetPreferenceSetCommand(ctx, recipient, id, granularRequest(part)));
  }

  @Endpoint(routes.user.workflows)
  userWorkflows(@Input() { params, body }: RouteInput<U['workflows']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, user(params), params.id, { field: 'workflows', all: body.workflows });
  }

  @Endpoint(routes.user.workflow)
  userWorkflow(@Input() { params, body }: RouteInput<U['workflow']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, user(params), params.id, { field: 'workflows', key: params.key, body });
  }

  @Endpoint(routes.user.categories)
  userCategories(@Input() { params, body }: RouteInput<U['categories']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, user(params), params.id, { field: 'categories', all: body.categories });
  }

  @Endpoint(routes.user.category)
  userCategory(@Input() { params, body }: RouteInput<U['category']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, user(params), params.id, { field: 'categories', key: params.key, body });
  }

  @Endpoint(routes.user.channelTypes)
  userChannelTypes(@Input() { params, body }: RouteInput<U['channelTypes']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, user(params), params.id, { field: 'channel_types', all: body.channel_types });
  }

  @Endpoint(routes.user.channelType)
  userChannelType(@Input() { params, body }: RouteInput<U['channelType']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, user(params), params.id, { field: 'channel_types', key: params.type, body });
  }

  @Endpoint(routes.object.workflows)
  objectWorkflows(@Input() { params, body }: RouteInput<O['workflows']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, object(params), params.id, { field: 'workflows', all: body.workflows });
  }

  @Endpoint(routes.object.workflow)
  objectWorkflow(@Input() { params, body }: RouteInput<O['workflow']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, object(params), params.id, { field: 'workflows', key: params.key, body });
  }

  @Endpoint(routes.object.categories)
  objectCategories(@Input() { params, body }: RouteInput<O['categories']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, object(params), params.id, { field: 'categories', all: body.categories });
  }

  @Endpoint(routes.object.category)
  objectCategory(@Input() { params, body }: RouteInput<O['category']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, object(params), params.id, { field: 'categories', key: params.key, body });
  }

  @Endpoint(routes.object.channelTypes)
  objectChannelTypes(@Input() { params, body }: RouteInput<O['channelTypes']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, object(params), params.id, { field: 'channel_types', all: body.channel_types });
  }

  @Endpoint(routes.object.channelType)
  objectChannelType(@Input() { params, body }: RouteInput<O['channelType']>, @Ctx() ctx: RequestContext) {
    return this.set(ctx, object(params), params.id, { field: 'channel_types', key: params.type, body });
  }
}
