import 'reflect-metadata';
import '@notify/platform/source-maps';
import { loadConfigOrExit, roleLogger, runMain, startContext } from '@notify/platform';
import { WorkerModule } from './worker.module';

/** The worker alone: projections and background processing, no HTTP. */
runMain('worker', async () => {
  const config = loadConfigOrExit();
  await startContext(config, roleLogger(config, 'worker'), [WorkerModule.register()]);
});
