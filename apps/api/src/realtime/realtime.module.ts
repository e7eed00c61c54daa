import { Module } from '@nestjs/common';
import { GuidesModule } from '../guides/guides.module';
import { FeedCounts } from './feed-counts';
import { FeedSignals } from './feed-signals';
import { GuideFanout } from './guide-fanout';
import { GuideSignals } from './guide-signals';
import { RealtimeGateway } from './realtime.gateway';

/** Real-time feed and guide updates over the Phoenix-protocol websocket. */
@Module({ imports: [GuidesModule], providers: [FeedSignals, FeedCounts, GuideSignals, GuideFanout, RealtimeGateway] })
export class RealtimeModule {}
