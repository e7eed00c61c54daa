import { Module } from '@nestjs/common';
import { ApiKeyLookup } from './api-key-lookup';
import { CreateApiKeyController } from './create-api-key/create-api-key.controller';
import { CreateApiKeyHandler } from './create-api-key/create-api-key.handler';
import { GetApiKeyController } from './get-api-key/get-api-key.controller';
import { ListApiKeysController } from './list-api-keys/list-api-keys.controller';
import { RevokeApiKeyController } from './revoke-api-key/revoke-api-key.controller';
import { RevokeApiKeyHandler } from './revoke-api-key/revoke-api-key.handler';
import { RotateApiKeyController } from './rotate-api-key/rotate-api-key.controller';
import { RotateApiKeyHandler } from './rotate-api-key/rotate-api-key.handler';

/** Management API: an environment's API keys (list, get, create, rotate, revoke; ADR 0152). */
@Module({
  controllers: [ListApiKeysController, GetApiKeyController, CreateApiKeyController, RotateApiKeyController, RevokeApiKeyController],
  providers: [ApiKeyLookup, CreateApiKeyHandler, RotateApiKeyHandler, RevokeApiKeyHandler],
})
export class ApiKeysModule {}
