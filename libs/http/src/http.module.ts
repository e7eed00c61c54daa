import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { CREDENTIAL_STORE, CredentialStore } from './credentials';
import { RateLimitGuard } from './rate-limit.guard';

/** Guards every route: authentication first (it sets the environment), then rate limits. */
@Module({})
export class HttpModule {
  static forRoot(options: { credentialStore: Type<CredentialStore> }): DynamicModule {
    return {
      module: HttpModule,
      providers: [
        { provide: CREDENTIAL_STORE, useClass: options.credentialStore },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
    };
  }
}
