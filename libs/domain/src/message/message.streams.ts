export const messageStream = (environment: string, messageId: string) => `message-${environment}-${messageId}`;
