import { Controller } from '@nestjs/common';
import { replayToKafkaRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { commandMetadata } from '../../shared/command-metadata';
import { KafkaReplayer } from './kafka-replayer';

@Controller()
export class ReplayToKafkaController {
  constructor(private readonly replayer: KafkaReplayer) {}

  @Endpoint(replayToKafkaRoute)
  replay(@Input() { body }: RouteInput<typeof replayToKafkaRoute>, @Ctx() ctx: RequestContext) {
    return this.replayer.replay(body, commandMetadata(ctx));
  }
}
