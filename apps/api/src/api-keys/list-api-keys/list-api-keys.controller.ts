import { Controller } from '@nestjs/common';
import { listApiKeysRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { ApiKeyLookup } from '../api-key-lookup';

@Controller()
export class ListApiKeysController {
  constructor(private readonly keys: ApiKeyLookup) {}

  @Endpoint(listApiKeysRoute)
  async list(@Input() { query }: RouteInput<typeof listApiKeysRoute>) {
    return { entries: await this.keys.list(query.environment, query.active ?? false) };
  }
}
