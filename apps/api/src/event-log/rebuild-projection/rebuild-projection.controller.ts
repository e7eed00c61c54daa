import { Controller } from '@nestjs/common';
import { getProjectionRebuildRoute, RouteInput, startProjectionRebuildRoute } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ProjectionRebuilds } from './projection-rebuilds';

@Controller()
export class RebuildProjectionController {
  constructor(private readonly rebuilds: ProjectionRebuilds) {}

  @Endpoint(startProjectionRebuildRoute)
  start(@Input() { params }: RouteInput<typeof startProjectionRebuildRoute>) {
    return this.rebuilds.start(params.name);
  }

  @Endpoint(getProjectionRebuildRoute)
  get(@Input() { params }: RouteInput<typeof getProjectionRebuildRoute>) {
    return this.rebuilds.get(params.name);
  }
}
