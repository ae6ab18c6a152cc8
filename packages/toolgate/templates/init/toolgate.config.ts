// What toolgate serves: found by `npx -y toolgate serve` (and lint, contract, token) in this folder.
import { defineConfig } from 'toolgate';
import { taskTools } from './tools/task-tools.ts';

export default defineConfig({
  tools: taskTools(process.env.TASKS_URL ?? 'http://127.0.0.1:4300'),
});
