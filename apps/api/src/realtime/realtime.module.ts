import { Module } from '@nestjs/common';
import { FeedCounts } from './feed-counts';
import { FeedSignals } from './feed-signals';
import { RealtimeGateway } from './realtime.gateway';

/** Real-time feed updates over the Phoenix-protocol websocket. */
@Module({ providers: [FeedSignals, FeedCounts, RealtimeGateway] })
export class RealtimeModule {}
