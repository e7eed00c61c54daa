import { Controller } from '@nestjs/common';
import { getApiKeyRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ApiKeyLookup } from '../api-key-lookup';

@Controller()
export class GetApiKeyController {
  constructor(private readonly keys: ApiKeyLookup) {}

  @Endpoint(getApiKeyRoute)
  get(@Input() { params, query }: RouteInput<typeof getApiKeyRoute>) {
    return this.keys.require(query.environment, params.key_id);
  }
}
