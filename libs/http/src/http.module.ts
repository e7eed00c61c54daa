import { DynamicModule, Module, Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator';
import { CREDENTIAL_STORE, CredentialStore } from './credentials';
import { RateLimitGuard } from './rate-limit.guard';

/** Guards every route: authentication first (it sets the environment), then rate limits. */
@Module({})
export class HttpModule {
  static forRoot(options: { credentialStore: Type<CredentialStore> }): DynamicModule {
    return {
      module: HttpModule,
      // The websocket gateway authenticates with the same Authenticator.
      global: true,
      providers: [
        { provide: CREDENTIAL_STORE, useClass: options.credentialStore },
        Authenticator,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
      exports: [Authenticator],
    };
  }
}
