import { defineConfig } from 'prisma/config';

// The CLI only needs a URL for commands that touch a database; `prisma generate` must
// work offline on a fresh clone, so an unset DATABASE_URL falls back to a placeholder
// that is never connected to.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://placeholder@localhost:5432/placeholder',
  },
});
