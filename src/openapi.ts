// The OpenAPI document, generated from the route schemas. No database is touched:
// building the app only declares routes.
import { buildApp } from './app.ts';
import { createClients } from './db/client.ts';

export const openApiPath = new URL('../openapi/openapi.json', import.meta.url);

export async function generateOpenApi(): Promise<string> {
  const clients = createClients('postgresql://unused@127.0.0.1:1/unused');
  const app = await buildApp({ ...clients, background: false });
  try {
    await app.ready();
    return `${JSON.stringify(app.swagger(), null, 2)}\n`;
  } finally {
    await app.close();
    await clients.close();
  }
}
