import 'reflect-metadata';
import '@notify/platform/source-maps';
import { loadConfigOrExit, roleLogger, runMain, startHttp } from '@notify/platform';
import { ApiModule } from '../../api/src/api.module';
import { WorkerModule } from '../../worker/src/worker.module';

/** `npm start`: api and worker in one process. */
runMain('server', async () => {
  const config = loadConfigOrExit();
  await startHttp(config, roleLogger(config, 'server'), [ApiModule.register(), WorkerModule.register()]);
});
