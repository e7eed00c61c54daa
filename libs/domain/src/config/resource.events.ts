import type {
  AudienceArchived,
  AudienceUpserted,
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

export type ResourceType = 'workflow' | 'partial' | 'email_layout' | 'translation' | 'message_type' | 'audience';

export type ResourceUpsertedEvent =
  | EventOf<typeof WorkflowUpserted>
  | EventOf<typeof PartialUpserted>
  | EventOf<typeof EmailLayoutUpserted>
  | EventOf<typeof TranslationUpserted>
  | EventOf<typeof MessageTypeUpserted>
  | EventOf<typeof AudienceUpserted>;

export type ResourceEvent =
  ResourceUpsertedEvent | EventOf<typeof WorkflowActivated> | EventOf<typeof WorkflowDeactivated> | EventOf<typeof AudienceArchived>;

export type CommitLogEvent = EventOf<typeof ResourcesCommitted> | EventOf<typeof CommitPromoted>;

export const UPSERTED_EVENT: Record<ResourceType, ResourceUpsertedEvent['type']> = {
  workflow: 'WorkflowUpserted',
  partial: 'PartialUpserted',
  email_layout: 'EmailLayoutUpserted',
  translation: 'TranslationUpserted',
  message_type: 'MessageTypeUpserted',
  audience: 'AudienceUpserted',
};

export const RESOURCE_TYPE_OF: Record<ResourceUpsertedEvent['type'], ResourceType> = {
  WorkflowUpserted: 'workflow',
  PartialUpserted: 'partial',
  EmailLayoutUpserted: 'email_layout',
  TranslationUpserted: 'translation',
  MessageTypeUpserted: 'message_type',
  AudienceUpserted: 'audience',
};
