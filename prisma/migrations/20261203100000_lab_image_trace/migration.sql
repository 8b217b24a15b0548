-- AlterTable
ALTER TABLE "Lab" ADD COLUMN     "traceImageKey" TEXT,
ADD COLUMN     "traceImageSeq" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "LabImageTraceEvent" (
    "imageKey" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "t" BIGINT NOT NULL,
    "component" TEXT NOT NULL,
    "node" TEXT,
    "verb" TEXT NOT NULL,
    "object" JSONB,
    "message" TEXT NOT NULL,
    "causedBy" INTEGER,
    "data" JSONB,

    CONSTRAINT "LabImageTraceEvent_pkey" PRIMARY KEY ("imageKey","seq")
);
