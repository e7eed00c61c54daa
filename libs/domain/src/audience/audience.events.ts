import type { AudienceCreated, AudienceMembersAdded, AudienceMembersRemoved, EventOf } from '@notify/contracts';

export type AudienceEvent = EventOf<typeof AudienceCreated> | EventOf<typeof AudienceMembersAdded> | EventOf<typeof AudienceMembersRemoved>;
