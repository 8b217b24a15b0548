import argon2 from 'argon2';
import { createPrismaClient } from '../libs/db/src/prisma-client.factory';
import type { Role } from '../libs/db/src/generated/enums';

// Demo accounts, one per role. Idempotent: re-running resets their role and password.
// Run: npx tsx prisma/seed.ts (DATABASE_URL defaults to the local dev database).

const PASSWORD = 'KubeJourney2026';
const ACCOUNTS: Array<{ email: string; displayName: string; role: Role }> = [
  { email: 'learner@kubejourney.dev', displayName: 'Demo Learner', role: 'LEARNER' },
  { email: 'instructor@kubejourney.dev', displayName: 'Demo Instructor', role: 'INSTRUCTOR' },
  { email: 'admin@kubejourney.dev', displayName: 'Demo Admin', role: 'ADMIN' },
];

async function seed(): Promise<void> {
  const databaseUrl =
    process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/kubejourney';
  const prisma = createPrismaClient(databaseUrl);
  try {
    // Same algorithm and parameters as the API (apps/api/src/modules/auth/crypto.repository.ts).
    const passwordHash = await argon2.hash(PASSWORD, {
      type: argon2.argon2id,
      memoryCost: 19_456,
      timeCost: 2,
      parallelism: 1,
    });
    for (const account of ACCOUNTS) {
      await prisma.user.upsert({
        where: { email: account.email },
        create: { ...account, passwordHash },
        update: { displayName: account.displayName, role: account.role, passwordHash },
      });
    }
  } finally {
    await prisma.$disconnect();
  }
  console.log('Seeded demo accounts (password for all three):');
  for (const account of ACCOUNTS) {
    console.log(`  ${account.role.padEnd(10)} ${account.email.padEnd(28)} ${PASSWORD}`);
  }
}

seed().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
