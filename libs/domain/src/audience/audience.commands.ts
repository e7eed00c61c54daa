/** A member as the command sees it: whether the read model already holds it is looked up first. */
export interface MemberCandidate {
  userId: string;
  tenant: string | null;
  present: boolean;
}

export type AudienceCommand =
  | { type: 'AddAudienceMembers'; audienceKey: string; members: MemberCandidate[]; createIfMissing: boolean; now: string }
  | { type: 'RemoveAudienceMembers'; audienceKey: string; members: MemberCandidate[]; now: string };
