import type {
  EventOf,
  RunCancelled,
  RunCompleted,
  RunDataUpdated,
  RunEnqueued,
  RunPaused,
  RunResumed,
  StepCompleted,
  StepStarted,
  TimerFired,
  TimerScheduled,
  WorkflowTriggered,
} from '@notify/contracts';

export type RunEnqueuedData = EventOf<typeof RunEnqueued>['data'];
export type WorkflowTriggeredData = EventOf<typeof WorkflowTriggered>['data'];
export type RunResumedData = EventOf<typeof RunResumed>['data'];

export type RunEvent =
  | EventOf<typeof RunEnqueued>
  | EventOf<typeof StepStarted>
  | EventOf<typeof StepCompleted>
  | EventOf<typeof RunPaused>
  | EventOf<typeof TimerScheduled>
  | EventOf<typeof TimerFired>
  | EventOf<typeof RunResumed>
  | EventOf<typeof RunDataUpdated>
  | EventOf<typeof RunCancelled>
  | EventOf<typeof RunCompleted>;
