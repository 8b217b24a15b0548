import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Clock, SystemClock } from '../../common/clock';
import { UsersModule } from '../users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CryptoRepository } from './crypto.repository';
import { LoginThrottleRepository } from './login-throttle.repository';
import { RolesGuard } from './roles.guard';
import { SessionGuard } from './session.guard';
import { SessionRepository } from './session.repository';

@Module({
  imports: [UsersModule],
  controllers: [AuthController],
  providers: [
    AuthService,
    CryptoRepository,
    SessionRepository,
    LoginThrottleRepository,
    { provide: Clock, useClass: SystemClock },
    // Order matters: the session guard attaches the user the roles guard checks.
    { provide: APP_GUARD, useClass: SessionGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
})
export class AuthModule {}
