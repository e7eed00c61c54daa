import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { bootstrap } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { EVENT_STORE } from '@notify/platform';

/** Creates the first environment and its credentials when the api starts on an empty log. */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await bootstrap(this.store, this.config, this.logger);
  }
}
