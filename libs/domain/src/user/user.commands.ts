import type { AspectCommand, RecipientAspects } from '../recipient/recipient-aspects';

export type UserCommand =
  /** Properties merge; inline channel data and preferences ride along in the same append. */
  | { type: 'IdentifyUser'; userId: string; properties: Record<string, unknown>; aspects?: AspectCommand[]; now: string }
  | { type: 'DeleteUser'; userId: string; now: string }
  /** Deletes the user if they exist and erases their personal data (UserErased), once per history. */
  | { type: 'EraseUser'; userId: string; reason: string | null; now: string }
  /** Channel data and preference changes; a set on an absent user creates it. */
  | { type: 'UpdateUserAspects'; userId: string; commands: AspectCommand[]; now: string }
  /** `from` is the source user's state as read from its stream. */
  | { type: 'MergeUser'; userId: string; fromUserId: string; from: { exists: boolean; aspects: RecipientAspects }; now: string };
