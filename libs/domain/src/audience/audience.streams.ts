export const audienceStream = (environment: string, audienceKey: string) => `audience-${environment}-${audienceKey}`;
