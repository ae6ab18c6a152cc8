// Runs the tasks service on its own: `npm run service` (PORT, default 4300).
import { startTaskService } from './task-service.ts';

const port = Number(process.env.PORT ?? 4300);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`tasks service: PORT ${process.env.PORT} is not a port number\n`);
  process.exit(2);
}

const service = await startTaskService(port);
process.stdout.write(`tasks service listening on ${service.url}\n`);
const stop = () => service.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
