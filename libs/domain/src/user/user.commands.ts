export type UserCommand =
  | { type: 'IdentifyUser'; userId: string; properties: Record<string, unknown>; now: string }
  | { type: 'DeleteUser'; userId: string; now: string };
