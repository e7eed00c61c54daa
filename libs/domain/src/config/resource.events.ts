import type {
  CommitPromoted,
  EmailLayoutUpserted,
  EventOf,
  MessageTypeUpserted,
  PartialUpserted,
  ResourcesCommitted,
  TranslationUpserted,
  WorkflowActivated,
  WorkflowDeactivated,
  WorkflowUpserted,
} from '@notify/contracts';

export type ResourceType = 'workflow' | 'partial' | 'email_layout' | 'translation' | 'message_type';

export type ResourceUpsertedEvent =
  | EventOf<typeof WorkflowUpserted>
  | EventOf<typeof PartialUpserted>
  | EventOf<typeof EmailLayoutUpserted>
  | EventOf<typeof TranslationUpserted>
  | EventOf<typeof MessageTypeUpserted>;

export type ResourceEvent = ResourceUpsertedEvent | EventOf<typeof WorkflowActivated> | EventOf<typeof WorkflowDeactivated>;

export type CommitLogEvent = EventOf<typeof ResourcesCommitted> | EventOf<typeof CommitPromoted>;

export const UPSERTED_EVENT: Record<ResourceType, ResourceUpsertedEvent['type']> = {
  workflow: 'WorkflowUpserted',
  partial: 'PartialUpserted',
  email_layout: 'EmailLayoutUpserted',
  translation: 'TranslationUpserted',
  message_type: 'MessageTypeUpserted',
};

export const RESOURCE_TYPE_OF: Record<ResourceUpsertedEvent['type'], ResourceType> = {
  WorkflowUpserted: 'workflow',
  PartialUpserted: 'partial',
  EmailLayoutUpserted: 'email_layout',
  TranslationUpserted: 'translation',
  MessageTypeUpserted: 'message_type',
};
