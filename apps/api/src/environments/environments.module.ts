import { Module } from '@nestjs/common';
import { CreateSigningKeyController } from './create-signing-key/create-signing-key.controller';
import { CreateSigningKeyHandler } from './create-signing-key/create-signing-key.handler';
import { EnvironmentLookup } from './environment-lookup';
import { GetSecurityController } from './get-security/get-security.controller';
import { GetSecurityHandler } from './get-security/get-security.handler';
import { ListSigningKeysController } from './list-signing-keys/list-signing-keys.controller';
import { ListSigningKeysHandler } from './list-signing-keys/list-signing-keys.handler';
import { RevokeSigningKeyController } from './revoke-signing-key/revoke-signing-key.controller';
import { RevokeSigningKeyHandler } from './revoke-signing-key/revoke-signing-key.handler';
import { UpdateSecurityController } from './update-security/update-security.controller';
import { UpdateSecurityHandler } from './update-security/update-security.handler';
import { GetEnvironmentController } from './get-environment/get-environment.controller';
import { GetEnvironmentHandler } from './get-environment/get-environment.handler';
import { ListEnvironmentsController } from './list-environments/list-environments.controller';
import { ListEnvironmentsHandler } from './list-environments/list-environments.handler';
import { WhoamiController } from './whoami/whoami.controller';
import { ExchangeApiKeyController } from './exchange-api-key/exchange-api-key.controller';
import { ExchangeApiKeyHandler } from './exchange-api-key/exchange-api-key.handler';
import { WhoamiHandler } from './whoami/whoami.handler';

/**
 * Management API: the environments (list, get), an environment's signing keys for user tokens
 * and its enhanced security mode, and `whoami` (the account and the calling service token).
 */
@Module({
  controllers: [
    ListEnvironmentsController,
    GetEnvironmentController,
    WhoamiController,
    ExchangeApiKeyController,
    CreateSigningKeyController,
    ListSigningKeysController,
    RevokeSigningKeyController,
    GetSecurityController,
    UpdateSecurityController,
  ],
  providers: [
    EnvironmentLookup,
    ListEnvironmentsHandler,
    GetEnvironmentHandler,
    WhoamiHandler,
    ExchangeApiKeyHandler,
    CreateSigningKeyHandler,
    ListSigningKeysHandler,
    RevokeSigningKeyHandler,
    GetSecurityHandler,
    UpdateSecurityHandler,
  ],
})
export class EnvironmentsModule {}
