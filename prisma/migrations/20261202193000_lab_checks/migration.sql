-- CreateTable
CREATE TABLE "LabCheck" (
    "labId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "score" INTEGER NOT NULL,
    "maxScore" INTEGER NOT NULL,
    "objectives" JSONB NOT NULL,
    "simTimeMs" BIGINT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LabCheck_pkey" PRIMARY KEY ("labId","seq")
);

-- AddForeignKey
ALTER TABLE "LabCheck" ADD CONSTRAINT "LabCheck_labId_fkey" FOREIGN KEY ("labId") REFERENCES "Lab"("id") ON DELETE CASCADE ON UPDATE CASCADE;

