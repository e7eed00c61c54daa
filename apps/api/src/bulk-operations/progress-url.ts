import { BulkOperationT } from '@notify/contracts';

/**
 * A bulk operation as the API answers it: the application and the read model know its path
 * (`/v1/bulk_operations/<id>`); the answer carries it as an absolute URL under the service's
 * public address (PUBLIC_URL, or the request's origin; ADR 0116).
 */
export function withProgressUrl(operation: BulkOperationT, publicUrl: string): BulkOperationT {
  return { ...operation, progress_path: `${publicUrl}${operation.progress_path}` };
}
