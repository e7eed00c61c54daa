import type {
  ApiKeyIssued,
  ApiKeyRevoked,
  ApiKeyRotated,
  EnhancedSecurityModeChanged,
  EnvironmentCreated,
  EventOf,
  ServiceTokenIssued,
  ServiceTokenRevoked,
  SigningKeyCreated,
  SigningKeyRevoked,
} from '@notify/contracts';

export type EnvironmentEvent =
  | EventOf<typeof EnvironmentCreated>
  | EventOf<typeof ApiKeyIssued>
  | EventOf<typeof ApiKeyRevoked>
  | EventOf<typeof ApiKeyRotated>
  | EventOf<typeof SigningKeyCreated>
  | EventOf<typeof SigningKeyRevoked>
  | EventOf<typeof EnhancedSecurityModeChanged>;
export type AccountEvent = EventOf<typeof ServiceTokenIssued> | EventOf<typeof ServiceTokenRevoked>;
