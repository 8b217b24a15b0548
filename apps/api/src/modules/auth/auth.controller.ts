import { Body, Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  type TLoginRequest,
  type TSignupRequest,
  type TUserResponse,
  ZLoginRequest,
  ZSignupRequest,
  ZUserResponse,
} from '@kubejourney/contracts';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth.decorators';
import { toOpenApiSchema } from '../../common/openapi.util';
import { ZodValidationPipe } from '../../common/zod-validation.pipe';
import { APP_CONFIG } from '../../config/config.module';
import type { TAppConfig } from '../../config/env.schema';
import { toUserDto } from '../users/user.mapper';
import { AuthService, type TClientInfo } from './auth.service';
import { clearSessionCookie, readSessionToken, setSessionCookie } from './session-cookie';

const USER_AGENT_MAX_LENGTH = 512;

function clientInfo(request: Request): TClientInfo {
  return {
    ip: request.ip ?? 'unknown',
    userAgent: request.headers['user-agent']?.slice(0, USER_AGENT_MAX_LENGTH),
  };
}

@ApiTags('auth')
@Public()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly authService: AuthService,
    @Inject(APP_CONFIG) private readonly config: TAppConfig,
  ) {}

  @Post('signup')
  @ApiBody({ schema: toOpenApiSchema(ZSignupRequest) })
  @ApiCreatedResponse({ schema: toOpenApiSchema(ZUserResponse, 'output') })
  @ApiConflictResponse({ description: 'EMAIL_TAKEN' })
  async signup(
    @Body(new ZodValidationPipe(ZSignupRequest)) body: TSignupRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TUserResponse> {
    const session = await this.authService.signup(body, clientInfo(request));
    setSessionCookie(response, session.token, session.maxAgeMs, this.config.cookieSecure);
    return { user: toUserDto(session.user) };
  }

  @Post('login')
  @HttpCode(200)
  @ApiBody({ schema: toOpenApiSchema(ZLoginRequest) })
  @ApiOkResponse({ schema: toOpenApiSchema(ZUserResponse, 'output') })
  @ApiUnauthorizedResponse({ description: 'INVALID_CREDENTIALS' })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED, with a Retry-After header' })
  async login(
    @Body(new ZodValidationPipe(ZLoginRequest)) body: TLoginRequest,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TUserResponse> {
    const session = await this.authService.login(body, clientInfo(request));
    setSessionCookie(response, session.token, session.maxAgeMs, this.config.cookieSecure);
    return { user: toUserDto(session.user) };
  }

  @Post('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Session ended (also when there was none)' })
  async logout(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.authService.logout(readSessionToken(request));
    clearSessionCookie(response, this.config.cookieSecure);
  }
}
