-- AlterTable
ALTER TABLE "Lab" ADD COLUMN     "traceSeqOffset" INTEGER NOT NULL DEFAULT 0;

