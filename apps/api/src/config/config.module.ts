import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { TAppConfig } from './env.schema';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Makes the config parsed at boot injectable everywhere as APP_CONFIG. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: TAppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_CONFIG, useValue: config }],
      exports: [APP_CONFIG],
    };
  }
}
