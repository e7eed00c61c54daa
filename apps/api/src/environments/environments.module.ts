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

/** Management API: an environment's signing keys for user tokens and its enhanced security mode. */
@Module({
  controllers: [CreateSigningKeyController, ListSigningKeysController, RevokeSigningKeyController, GetSecurityController, UpdateSecurityController],
  providers: [EnvironmentLookup, CreateSigningKeyHandler, ListSigningKeysHandler, RevokeSigningKeyHandler, GetSecurityHandler, UpdateSecurityHandler],
})
export class EnvironmentsModule {}
