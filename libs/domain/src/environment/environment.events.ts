import type { ApiKeyIssued, ApiKeyRevoked, EnvironmentCreated, EventOf, ServiceTokenIssued, ServiceTokenRevoked } from '@notify/contracts';

export type EnvironmentEvent = EventOf<typeof EnvironmentCreated> | EventOf<typeof ApiKeyIssued> | EventOf<typeof ApiKeyRevoked>;
export type AccountEvent = EventOf<typeof ServiceTokenIssued> | EventOf<typeof ServiceTokenRevoked>;
