/** A member as the command sees it: whether the read model already holds it is looked up first. */
export interface MemberCandidate {
  userId: string;
  tenant: string | null;
  present: boolean;
}

/** `defined`: the audience was upserted through the management API (its definition stream). */
export type AudienceCommand =
  | {
      type: 'AddAudienceMembers';
      audienceKey: string;
      members: MemberCandidate[];
      createIfMissing: boolean;
      defined?: boolean;
      now: string;
    }
  | { type: 'RemoveAudienceMembers'; audienceKey: string; members: MemberCandidate[]; defined?: boolean; now: string }
  /** Archives the members' side of an audience: its members leave; a later create starts it empty. */
  | { type: 'ArchiveAudience'; audienceKey: string; defined: boolean; now: string };
