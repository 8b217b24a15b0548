import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  type TClockRequest,
  type TCreateLabRequest,
  type TExecRequest,
  type TExecResponse,
  type TLabCheckResponse,
  type TLabLastCheckResponse,
  type TScenarioListResponse,
  type TLabListResponse,
  type TLabView,
  ZClockRequest,
  ZCreateLabRequest,
  ZExecRequest,
  ZExecResponse,
  ZLabCheckResponse,
  ZLabLastCheckResponse,
  ZScenarioListResponse,
  ZLabListResponse,
  ZLabView,
} from '@kubejourney/contracts';
import type { Request, Response } from 'express';
import { CurrentUser } from '../../common/auth.decorators';
import type { TAuthenticatedUser } from '../../common/authenticated-request';
import { toOpenApiSchema } from '../../common/openapi.util';
import { ZodValidationPipe } from '../../common/zod-validation.pipe';
import { LabStreamService } from './lab-stream.service';
import { LabsService } from './labs.service';

/** A stream position from Last-Event-ID (or ?since= for clients that cannot set headers). */
function parseResumePoint(header: string | undefined, since: string | undefined): number | null {
  const raw = header ?? since;
  if (raw === undefined || !/^\d{1,10}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

@ApiTags('labs')
@ApiUnauthorizedResponse({ description: 'UNAUTHENTICATED: no valid session cookie' })
@ApiNotFoundResponse({ description: 'NOT_FOUND: no such lab, or not yours' })
@Controller('labs')
export class LabsController {
  constructor(
    private readonly labs: LabsService,
    private readonly streams: LabStreamService,
  ) {}

  @Post()
  @ApiBody({ schema: toOpenApiSchema(ZCreateLabRequest) })
  @ApiCreatedResponse({ schema: toOpenApiSchema(ZLabView, 'output') })
  @ApiTooManyRequestsResponse({ description: 'LIMIT_REACHED: too many labs already' })
  create(
    @CurrentUser() user: TAuthenticatedUser,
    @Body(new ZodValidationPipe(ZCreateLabRequest)) body: TCreateLabRequest,
  ): Promise<TLabView> {
    return this.labs.create(user.id, body);
  }

  @Get()
  @ApiOkResponse({ schema: toOpenApiSchema(ZLabListResponse, 'output') })
  list(@CurrentUser() user: TAuthenticatedUser): Promise<TLabListResponse> {
    return this.labs.list(user.id);
  }

  // before ':id', so "scenarios" is never taken for a lab id
  @Get('scenarios')
  @ApiOkResponse({ schema: toOpenApiSchema(ZScenarioListResponse, 'output') })
  scenarios(): TScenarioListResponse {
    return this.labs.listScenarios();
  }

  @Get(':id')
  @ApiOkResponse({ schema: toOpenApiSchema(ZLabView, 'output') })
  get(@CurrentUser() user: TAuthenticatedUser, @Param('id') id: string): Promise<TLabView> {
    return this.labs.get(user.id, id);
  }

  @Post(':id/exec')
  @HttpCode(200)
  @ApiBody({ schema: toOpenApiSchema(ZExecRequest) })
  @ApiOkResponse({ schema: toOpenApiSchema(ZExecResponse, 'output') })
  @ApiTooManyRequestsResponse({ description: 'RATE_LIMITED: too many commands for this lab' })
  exec(
    @CurrentUser() user: TAuthenticatedUser,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(ZExecRequest)) body: TExecRequest,
  ): Promise<TExecResponse> {
    return this.labs.exec(user.id, id, body.command);
  }

  @Get(':id/check')
  @ApiOkResponse({ schema: toOpenApiSchema(ZLabLastCheckResponse, 'output') })
  lastCheck(
    @CurrentUser() user: TAuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TLabLastCheckResponse> {
    return this.labs.lastCheck(user.id, id);
  }

  @Post(':id/check')
  @HttpCode(200)
  @ApiOkResponse({ schema: toOpenApiSchema(ZLabCheckResponse, 'output') })
  check(
    @CurrentUser() user: TAuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TLabCheckResponse> {
    return this.labs.check(user.id, id);
  }

  @Get(':id/stream')
  @ApiOkResponse({ description: 'text/event-stream: `trace` (id = seq), `view`, `deleted`' })
  async stream(
    @CurrentUser() user: TAuthenticatedUser,
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('since') since: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await this.streams.stream(user.id, id, parseResumePoint(lastEventId, since), request, response);
  }

  @Post(':id/clock')
  @HttpCode(200)
  @ApiBody({ schema: toOpenApiSchema(ZClockRequest) })
  @ApiOkResponse({ schema: toOpenApiSchema(ZLabView, 'output') })
  clock(
    @CurrentUser() user: TAuthenticatedUser,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(ZClockRequest)) body: TClockRequest,
  ): Promise<TLabView> {
    return this.labs.changeClock(user.id, id, body);
  }

  @Post(':id/reset')
  @HttpCode(200)
  @ApiOkResponse({ schema: toOpenApiSchema(ZLabView, 'output') })
  reset(@CurrentUser() user: TAuthenticatedUser, @Param('id') id: string): Promise<TLabView> {
    return this.labs.reset(user.id, id);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentUser() user: TAuthenticatedUser, @Param('id') id: string): Promise<void> {
    await this.labs.delete(user.id, id);
  }
}
