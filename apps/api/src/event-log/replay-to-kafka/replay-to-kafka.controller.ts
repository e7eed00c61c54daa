import { Controller } from '@nestjs/common';
import { replayToKafkaRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { KafkaReplayer } from './kafka-replayer';

@Controller()
export class ReplayToKafkaController {
  constructor(private readonly replayer: KafkaReplayer) {}

  @Endpoint(replayToKafkaRoute)
  replay(@Input() { body }: RouteInput<typeof replayToKafkaRoute>) {
    return this.replayer.replay(body);
  }
}
