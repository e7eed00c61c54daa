import { Type } from '@nestjs/common';
import { Reactor } from '@notify/projection-runtime';
import { BulkOperationWorker } from './bulk-operations/bulk-operation.reactor';
import { CancellationReactor } from './engine/cancellation.reactor';
import { ErasureReactor } from './erasure/erasure.reactor';
import { engineReactors } from './engine/engine.reactors';
import { GoalRecipientReactor } from './goals/goal-recipient.reactor';
import { KafkaRelayReactor } from './kafka/kafka-relay.reactor';
import { ScheduleCleanupReactor } from './schedules/schedule-cleanup.reactor';

/**
 * Every reactor the worker runs (process managers, relays, bulk operation runners). Each is an
 * injectable class implementing Reactor; add new ones here.
 */
export const workerReactors: Type<Reactor>[] = [
  BulkOperationWorker,
  KafkaRelayReactor,
  ...engineReactors,
  CancellationReactor,
  ScheduleCleanupReactor,
  ErasureReactor,
  GoalRecipientReactor,
];
