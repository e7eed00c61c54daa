import type {
  AudienceArchived,
  AudienceUpserted,
  CommitPromoted,
  EmailLayoutArchived,
  EmailLayoutUpserted,
  EventOf,
  GuideActivated,
  GuideArchived,
  GuideDeactivated,
  GuideUpserted,
  MessageTypeUpserted,
  PartialArchived,
  PartialUpserted,
  ResourcesCommitted,
  TranslationUpserted,
  WorkflowActivated,
  WorkflowArchived,
  WorkflowDeactivated,
  WorkflowUpserted,
} from '@notify/contracts';

export type ResourceType = 'workflow' | 'partial' | 'email_layout' | 'translation' | 'message_type' | 'audience' | 'guide';

export type ResourceUpsertedEvent =
  | EventOf<typeof WorkflowUpserted>
  | EventOf<typeof PartialUpserted>
  | EventOf<typeof EmailLayoutUpserted>
  | EventOf<typeof TranslationUpserted>
  | EventOf<typeof MessageTypeUpserted>
  | EventOf<typeof AudienceUpserted>
  | EventOf<typeof GuideUpserted>;

export type ResourceEvent =
  | ResourceUpsertedEvent
  | EventOf<typeof WorkflowActivated>
  | EventOf<typeof WorkflowDeactivated>
  | EventOf<typeof AudienceArchived>
  | EventOf<typeof GuideActivated>
  | EventOf<typeof GuideDeactivated>
  | EventOf<typeof GuideArchived>
  | ResourceArchivedEvent;

/** Workflows, layouts and partials archived (ADR 0225). */
export type ResourceArchivedEvent =
  EventOf<typeof WorkflowArchived> | EventOf<typeof PartialArchived> | EventOf<typeof EmailLayoutArchived>;
export type ArchivableType = 'workflow' | 'partial' | 'email_layout';
export const ARCHIVED_EVENT: Record<ArchivableType, ResourceArchivedEvent['type']> = {
  workflow: 'WorkflowArchived',
  partial: 'PartialArchived',
  email_layout: 'EmailLayoutArchived',
};
export const ARCHIVED_TYPE_OF: Record<ResourceArchivedEvent['type'], ArchivableType> = {
  WorkflowArchived: 'workflow',
  PartialArchived: 'partial',
  EmailLayoutArchived: 'email_layout',
};

export type CommitLogEvent = EventOf<typeof ResourcesCommitted> | EventOf<typeof CommitPromoted>;

export const UPSERTED_EVENT: Record<ResourceType, ResourceUpsertedEvent['type']> = {
  workflow: 'WorkflowUpserted',
  partial: 'PartialUpserted',
  email_layout: 'EmailLayoutUpserted',
  translation: 'TranslationUpserted',
  message_type: 'MessageTypeUpserted',
  audience: 'AudienceUpserted',
  guide: 'GuideUpserted',
};

export const RESOURCE_TYPE_OF: Record<ResourceUpsertedEvent['type'], ResourceType> = {
  WorkflowUpserted: 'workflow',
  PartialUpserted: 'partial',
  EmailLayoutUpserted: 'email_layout',
  TranslationUpserted: 'translation',
  MessageTypeUpserted: 'message_type',
  AudienceUpserted: 'audience',
  GuideUpserted: 'guide',
};
