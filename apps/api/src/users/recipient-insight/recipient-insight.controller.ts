import { Controller, Inject } from '@nestjs/common';
import { IQueryHandler, Query, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { EngineLookups } from '@notify/application';
import { getUserPreferenceLayersRoute, listUserAudiencesRoute, RouteInput, RouteOutput } from '@notify/contracts';
import { Database } from '@notify/database';
import { layerPreferenceSets, resourceMissing } from '@notify/domain';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DATABASE, ENGINE_LOOKUPS } from '@notify/platform';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { UserQueries } from '@notify/projections/users';

/** A user's preference layers and audiences, for the console's recipient screen (ADR 0212). */

type Layers = RouteOutput<typeof getUserPreferenceLayersRoute>;
type Audiences = RouteOutput<typeof listUserAudiencesRoute>;

export class GetPreferenceLayersQuery extends Query<Layers> {
  constructor(
    readonly environment: string,
    readonly userId: string,
    readonly tenant: string | null,
  ) {
    super();
  }
}
export class ListUserAudiencesQuery extends Query<Audiences> {
  constructor(
    readonly environment: string,
    readonly userId: string,
  ) {
    super();
  }
}

/** The layers exactly as a send reads them (the engine's own lookup), and their merge by the engine's own function. */
@QueryHandler(GetPreferenceLayersQuery)
export class GetPreferenceLayersHandler implements IQueryHandler<GetPreferenceLayersQuery> {
  constructor(
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    private readonly users: UserQueries,
  ) {}

  async execute({ environment, userId, tenant }: GetPreferenceLayersQuery): Promise<Layers> {
    if (!(await this.users.get(environment, userId))) throw resourceMissing('user');
    const l = await this.lookups.preferenceLayers(environment, { type: 'user', id: userId }, tenant);
    const layers = {
      environment_default: l.environmentDefault ?? null,
      tenant_default: l.tenantDefault ?? null,
      recipient_default: l.recipientDefault ?? null,
      recipient_in_tenant: l.recipientInTenant ?? null,
    };
    const merged = layerPreferenceSets([l.environmentDefault, l.tenantDefault, l.recipientDefault, l.recipientInTenant]);
    return { tenant, layers, merged } as Layers;
  }
}

@QueryHandler(ListUserAudiencesQuery)
export class ListUserAudiencesHandler implements IQueryHandler<ListUserAudiencesQuery> {
  constructor(
    private readonly audiences: AudienceMemberQueries,
    private readonly users: UserQueries,
  ) {}

  async execute({ environment, userId }: ListUserAudiencesQuery): Promise<Audiences> {
    if (!(await this.users.get(environment, userId))) throw resourceMissing('user');
    const rows = await this.audiences.membershipsOf(environment, userId, new Date());
    return {
      entries: rows.map((r) => ({
        audience_key: r.audience_key,
        kind: r.kind,
        tenant: r.tenant,
        added_at: new Date(r.added_at).toISOString(),
        until: r.until ? new Date(r.until).toISOString() : null,
      })),
    };
  }
}

@Controller()
export class RecipientInsightController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getUserPreferenceLayersRoute)
  layers(@Input() { params, query }: RouteInput<typeof getUserPreferenceLayersRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetPreferenceLayersQuery(ctx.environment, params.user_id, query.tenant ?? null));
  }

  @Endpoint(listUserAudiencesRoute)
  audiences(@Input() { params }: RouteInput<typeof listUserAudiencesRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListUserAudiencesQuery(ctx.environment, params.user_id));
  }
}

export const recipientInsightProviders = [
  { provide: AudienceMemberQueries, inject: [DATABASE], useFactory: (db: Database) => new AudienceMemberQueries(db.dataSource) },
  GetPreferenceLayersHandler,
  ListUserAudiencesHandler,
];
