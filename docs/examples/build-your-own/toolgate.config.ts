import { defineConfig } from 'toolgate';
import { bookmarksModule } from './bookmarks-module.ts';

export default defineConfig({
  modules: [bookmarksModule],
  port: 8788,
  dataDir: '.toolgate',
});
