/** One stream per user per environment. */
export const userStream = (environment: string, userId: string) => `user-${environment}-${userId}`;
export const userStreamPrefix = (environment: string) => `user-${environment}-`;
