// Every connection the service opens names itself in pg_stat_activity: which instance
// (host and pid) and what for (the pool, the notification listener, migrations).
import os from 'node:os';

/** Postgres keeps the first 63 bytes of application_name. */
export const applicationName = (role: string): string => `spielwerk ${os.hostname()}:${process.pid} ${role}`.slice(0, 63);
