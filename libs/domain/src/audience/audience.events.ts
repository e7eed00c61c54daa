import type { AudienceArchived, AudienceCreated, AudienceMembersAdded, AudienceMembersRemoved, EventOf } from '@notify/contracts';

export type AudienceEvent =
  | EventOf<typeof AudienceCreated>
  | EventOf<typeof AudienceMembersAdded>
  | EventOf<typeof AudienceMembersRemoved>
  | EventOf<typeof AudienceArchived>;
