-- CreateTable
CREATE TABLE "LabStatePart" (
    "labId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "LabStatePart_pkey" PRIMARY KEY ("labId","name")
);

-- AddForeignKey
ALTER TABLE "LabStatePart" ADD CONSTRAINT "LabStatePart_labId_fkey" FOREIGN KEY ("labId") REFERENCES "Lab"("id") ON DELETE CASCADE ON UPDATE CASCADE;

