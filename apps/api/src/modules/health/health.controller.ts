import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { type THealthResponse, ZHealthResponse } from '@kubejourney/contracts';
import type { Response } from 'express';
import { Public } from '../../common/auth.decorators';
import { toOpenApiSchema } from '../../common/openapi.util';
import { HealthService } from './health.service';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly healthService: HealthService) {}

  @Get()
  @ApiOkResponse({ schema: toOpenApiSchema(ZHealthResponse, 'output') })
  @ApiServiceUnavailableResponse({ description: 'Same body, with the failing check "down"' })
  async check(@Res({ passthrough: true }) response: Response): Promise<THealthResponse> {
    const health = await this.healthService.check();
    response.status(health.status === 'ok' ? 200 : 503);
    return health;
  }
}
