export const bulkOperationStream = (environment: string, bulkOperationId: string) => `bulk-operation-${environment}-${bulkOperationId}`;
