-- CreateEnum
CREATE TYPE "LabKind" AS ENUM ('SANDBOX', 'SCENARIO');

-- CreateEnum
CREATE TYPE "LabStatus" AS ENUM ('ACTIVE', 'HIBERNATED');

-- CreateTable
CREATE TABLE "Lab" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "kind" "LabKind" NOT NULL,
    "scenarioId" TEXT,
    "status" "LabStatus" NOT NULL DEFAULT 'ACTIVE',
    "seed" INTEGER NOT NULL,
    "simTimeMs" BIGINT NOT NULL DEFAULT 0,
    "speed" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "coreState" TEXT NOT NULL,
    "clockAnchorWallMs" BIGINT NOT NULL,
    "clockAnchorSimMs" BIGINT NOT NULL DEFAULT 0,
    "lastTickWallMs" BIGINT NOT NULL,
    "quiescent" BOOLEAN NOT NULL DEFAULT false,
    "nextWakeAtMs" BIGINT,
    "traceSeq" INTEGER NOT NULL DEFAULT 0,
    "commandSeq" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastActiveAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Lab_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LabObject" (
    "labId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createRevision" INTEGER NOT NULL,
    "modRevision" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,

    CONSTRAINT "LabObject_pkey" PRIMARY KEY ("labId","key")
);

-- CreateTable
CREATE TABLE "LabCommand" (
    "labId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "input" TEXT NOT NULL,
    "stdout" TEXT NOT NULL,
    "stderr" TEXT NOT NULL,
    "exitCode" INTEGER NOT NULL,
    "simTimeMs" BIGINT NOT NULL,
    "wallMs" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabCommand_pkey" PRIMARY KEY ("labId","seq")
);

-- CreateTable
CREATE TABLE "LabTraceEvent" (
    "labId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "t" BIGINT NOT NULL,
    "component" TEXT NOT NULL,
    "node" TEXT,
    "verb" TEXT NOT NULL,
    "object" JSONB,
    "message" TEXT NOT NULL,
    "causedBy" INTEGER,
    "data" JSONB,

    CONSTRAINT "LabTraceEvent_pkey" PRIMARY KEY ("labId","seq")
);

-- CreateIndex
CREATE INDEX "Lab_ownerId_idx" ON "Lab"("ownerId");

-- CreateIndex
CREATE INDEX "Lab_status_quiescent_idx" ON "Lab"("status", "quiescent");

-- AddForeignKey
ALTER TABLE "Lab" ADD CONSTRAINT "Lab_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabObject" ADD CONSTRAINT "LabObject_labId_fkey" FOREIGN KEY ("labId") REFERENCES "Lab"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabCommand" ADD CONSTRAINT "LabCommand_labId_fkey" FOREIGN KEY ("labId") REFERENCES "Lab"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LabTraceEvent" ADD CONSTRAINT "LabTraceEvent_labId_fkey" FOREIGN KEY ("labId") REFERENCES "Lab"("id") ON DELETE CASCADE ON UPDATE CASCADE;

