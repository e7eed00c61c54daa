import { Controller, Inject } from '@nestjs/common';
import { EventHistory } from '@notify/application';
import { messageAsOfRoute, objectAsOfRoute, RouteInput, tenantAsOfRoute, workflowAsOfRoute } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { EVENT_HISTORY } from '../event-history.provider';

/** Objects, tenants, workflows and messages as the log had them at a point (as_of); users have theirs in user-as-of. */
@Controller()
export class StateAsOfController {
  constructor(@Inject(EVENT_HISTORY) private readonly history: EventHistory) {}

  @Endpoint(objectAsOfRoute)
  object(@Input() { params, query }: RouteInput<typeof objectAsOfRoute>) {
    return this.history.objectAsOf(query.environment, params.collection, params.object_id, query.as_of);
  }

  @Endpoint(tenantAsOfRoute)
  tenant(@Input() { params, query }: RouteInput<typeof tenantAsOfRoute>) {
    return this.history.tenantAsOf(query.environment, params.tenant_id, query.as_of);
  }

  @Endpoint(messageAsOfRoute)
  message(@Input() { params, query }: RouteInput<typeof messageAsOfRoute>) {
    return this.history.messageAsOf(query.environment, params.message_id, query.as_of);
  }

  @Endpoint(workflowAsOfRoute)
  workflow(@Input() { params, query }: RouteInput<typeof workflowAsOfRoute>) {
    return this.history.workflowAsOf(query.environment, params.key, query.as_of);
  }
}
