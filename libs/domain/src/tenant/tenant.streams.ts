export const tenantStream = (environment: string, tenantId: string) => `tenant-${environment}-${tenantId}`;
