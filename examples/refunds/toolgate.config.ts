// What toolgate serves for the refunds team: `toolgate serve --config toolgate.config.ts`.
import { defineConfig } from 'toolgate';
import { refundsModule } from './refunds-module.ts';

export default defineConfig({ modules: [refundsModule] });
