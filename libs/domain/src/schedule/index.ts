export * from './recurrence';
export * from './schedule-timing';
export * from './schedule.commands';
export * from './schedule.decider';
export * from './schedule.events';
export * from './schedule.streams';
