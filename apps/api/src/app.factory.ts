import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { jsonBodyMiddleware } from './common/json-body.middleware';
import type { TAppConfig } from './config/env.schema';

export const GLOBAL_PREFIX = 'api';

/** Builds the fully configured app; main.ts listens on it, integration tests drive it in-process. */
export async function createApp(config: TAppConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
    // Our own JSON parser (1 MB limit, errors mapped to domain codes) replaces Nest's default.
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  // The web app proxies /api; trust it (only it) for the client address used by rate limits.
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.use(cookieParser());
  app.use(jsonBodyMiddleware);
  app.setGlobalPrefix(GLOBAL_PREFIX);
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('KubeJourney API')
      .setDescription('Accounts and sessions; errors are {error: {code, message, fields?}}.')
      .addCookieAuth('kj_session')
      .build(),
  );
  SwaggerModule.setup(`${GLOBAL_PREFIX}/docs`, app, document);
  return app;
}
