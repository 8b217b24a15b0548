import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import {
  type TUpdateMeRequest,
  type TUserResponse,
  ZUpdateMeRequest,
  ZUserResponse,
} from '@kubejourney/contracts';
import { CurrentUser } from '../../common/auth.decorators';
import type { TAuthenticatedUser } from '../../common/authenticated-request';
import { toOpenApiSchema } from '../../common/openapi.util';
import { ZodValidationPipe } from '../../common/zod-validation.pipe';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiUnauthorizedResponse({ description: 'UNAUTHENTICATED: no valid session cookie' })
@Controller('me')
export class UsersController {
  constructor(private readonly usersService: UsersService) {}

  @Get()
  @ApiOkResponse({ schema: toOpenApiSchema(ZUserResponse, 'output') })
  getMe(@CurrentUser() user: TAuthenticatedUser): TUserResponse {
    return { user: this.usersService.getMe(user) };
  }

  @Patch()
  @ApiBody({ schema: toOpenApiSchema(ZUpdateMeRequest) })
  @ApiOkResponse({ schema: toOpenApiSchema(ZUserResponse, 'output') })
  async updateMe(
    @CurrentUser() user: TAuthenticatedUser,
    @Body(new ZodValidationPipe(ZUpdateMeRequest)) body: TUpdateMeRequest,
  ): Promise<TUserResponse> {
    return { user: await this.usersService.updateMe(user, body) };
  }
}
