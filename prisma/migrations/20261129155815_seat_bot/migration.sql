-- AlterTable
ALTER TABLE "seat" ADD COLUMN     "bot" TEXT;
