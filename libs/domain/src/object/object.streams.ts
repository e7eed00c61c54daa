/** One stream per object per environment; subscriptions to the object are recorded on it too. */
export const objectStream = (environment: string, collection: string, objectId: string) =>
  `object-${environment}-${collection}-${objectId}`;
