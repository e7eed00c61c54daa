/**
 * Topic names. The trailing `.v1` is the envelope's major version: a breaking envelope change
 * gets a new topic (published alongside the old one for a migration window), never an in-place
 * change. See docs/kafka/README.md and docs/adr/0053.
 */
export interface KafkaTopics {
  /** Every domain event, keyed by stream id. */
  events: string;
  /** Knock-style MessageEvents (`message.sent`, ...), keyed by recipient. */
  messageEvents: string;
  /** `workflow_recipient_run.started/.completed/.error`, keyed by recipient. */
  workflowRunEvents: string;
  /** The engine's own work queue (scale-out): recipient runs to execute, keyed by recipient. Internal. */
  runWork: string;
}

export type TopicAlias = keyof KafkaTopics;

export function kafkaTopics(prefix: string): KafkaTopics {
  return {
    events: `${prefix}events.v1`,
    messageEvents: `${prefix}message-events.v1`,
    workflowRunEvents: `${prefix}workflow-run-events.v1`,
    runWork: `${prefix}run-work.v1`,
  };
}

const aliases: Record<string, TopicAlias> = {
  events: 'events',
  'message-events': 'messageEvents',
  'workflow-run-events': 'workflowRunEvents',
  'run-work': 'runWork',
};

/** `events` / `message-events` / `workflow-run-events` / `run-work` name the service's topics; anything else is taken as a topic name. */
export function resolveTopic(topics: KafkaTopics, nameOrAlias: string): string {
  const alias = aliases[nameOrAlias];
  return alias ? topics[alias] : nameOrAlias;
}
