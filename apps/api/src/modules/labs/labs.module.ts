import { Module } from '@nestjs/common';
import { Clock, SystemClock } from '../../common/clock';
import { LabEventsRepository } from './lab-events.repository';
import { LabQueueRepository } from './lab-queue.repository';
import { LAB_SHELL, simLabShell } from './lab-shell';
import { LabStreamService } from './lab-stream.service';
import { LABS_CONFIG, loadLabsConfig } from './labs.config';
import { LabsController } from './labs.controller';
import { LabsRepository } from './labs.repository';
import { LabsService } from './labs.service';

@Module({
  controllers: [LabsController],
  providers: [
    { provide: LABS_CONFIG, useFactory: () => loadLabsConfig(process.env) },
    { provide: LAB_SHELL, useValue: simLabShell },
    { provide: Clock, useClass: SystemClock },
    LabsRepository,
    LabQueueRepository,
    LabEventsRepository,
    LabsService,
    LabStreamService,
  ],
})
export class LabsModule {}
