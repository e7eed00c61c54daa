import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, parseConfig } from './config.schema';

export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  /** The only place process.env is read; everything else gets the typed object injected. */
  static forRoot(config: AppConfig = parseConfig(process.env)): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
