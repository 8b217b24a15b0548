import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule } from './config/config.module';
import type { TAppConfig } from './config/env.schema';
import { PrismaModule } from './infra/prisma.module';
import { RedisModule } from './infra/redis.module';
import { AuthModule } from './modules/auth/auth.module';
import { HealthModule } from './modules/health/health.module';
import { LabsModule } from './modules/labs/labs.module';
import { UsersModule } from './modules/users/users.module';

@Module({})
export class AppModule {
  /** The config is parsed by the caller (main.ts or a test) and handed in, never re-read here. */
  static forRoot(config: TAppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            // Sessions must not end up in log files: drop cookies on the way in and out.
            redact: {
              paths: [
                'req.headers.cookie',
                'req.headers.authorization',
                'res.headers["set-cookie"]',
              ],
              censor: '[redacted]',
            },
          },
        }),
        PrismaModule,
        RedisModule,
        UsersModule,
        AuthModule,
        HealthModule,
        LabsModule,
      ],
    };
  }
}
