import 'reflect-metadata';
import '@notify/platform/source-maps';
import { loadConfigOrExit, roleLogger, runMain, startHttp } from '@notify/platform';
import { ApiModule } from './api.module';

/** The api alone; run one or more of these next to worker processes (needs DATABASE_URL). */
runMain('api', async () => {
  const config = loadConfigOrExit();
  await startHttp(config, roleLogger(config, 'api'), [ApiModule.register()]);
});
