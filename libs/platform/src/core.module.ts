import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, ConfigModule } from '@notify/config';
import { Database } from '@notify/database';
import {
  ERASURE_KEYS,
  ErasureKeyStore,
  LinkTracker,
  PersonalDataEventStore,
  PreferenceLinks,
  ReadModelLookups,
  SecretBox,
  RECIPIENT_EVENT_TYPES,
} from '@notify/application';
import { EventStore, PostgresEventStore, SharedLogReader } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { ConsoleSessionSigner } from '@notify/http';
import { AddressPolicy, OutboundHttp } from '@notify/outbound';
import { IsolatedRenderer, TemplateEngine, type TemplateRenderer } from '@notify/templating';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { allMigrations, allProjections } from '@notify/projections';
import path from 'node:path';
import { BootResources } from './boot-resources';
import { ReadYourWrites } from './read-your-writes';
import { startTracing, Tracing } from '@notify/observability';
import { loadErasureMasterKey, loadSecretBox, SECRET_BOX } from './secrets';
import {
  CLOCK,
  Clock,
  DATABASE,
  ENGINE_LOOKUPS,
  EVENT_STORE,
  LINK_TRACKER,
  LOG_READER,
  OUTBOUND_HTTP,
  PREFERENCE_LINKS,
  TEMPLATE_RENDERER,
  TRACING,
} from './tokens';

/**
 * The backends both roles share: the database (read models, and the log in the default mode),
 * the event store, and the projection runtime (started only by the worker; the api uses it to
 * wait for its own writes).
 */
@Global()
@Module({})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOG_READER) private readonly reader: SharedLogReader,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(TRACING) private readonly tracing: Tracing | undefined,
    @Inject(OUTBOUND_HTTP) private readonly outbound: OutboundHttp,
    @Inject(TEMPLATE_RENDERER) private readonly templates: TemplateRenderer,
  ) {}

  static forRoot(
    config: AppConfig,
    logger: Logger,
    boot: BootResources = new BootResources(),
    clock: Clock = () => new Date(),
  ): DynamicModule {
    return {
      module: CoreModule,
      imports: [ConfigModule.forRoot(config)],
      providers: [
        { provide: LOGGER, useValue: logger },
        { provide: CLOCK, useValue: clock },
        {
          // Traces go to an OpenTelemetry collector over OTLP/HTTP when an endpoint is set (ADR 0160).
          provide: TRACING,
          useFactory: () => {
            const endpoint =
              config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
              (config.OTEL_EXPORTER_OTLP_ENDPOINT ? `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` : undefined);
            const tracing = startTracing({ serviceName: config.OTEL_SERVICE_NAME, endpoint, sampleRatio: config.OTEL_TRACES_SAMPLE_RATIO });
            if (tracing) logger.info({ endpoint, sampleRatio: config.OTEL_TRACES_SAMPLE_RATIO }, 'exporting traces');
            return tracing && boot.opened(tracing, (t) => t.shutdown());
          },
        },
        {
          provide: DATABASE,
          useFactory: async () => {
            const database = boot.opened(
              await Database.open({
                url: config.DATABASE_URL,
                dataDir: path.join(config.DATA_DIR, 'db'),
                poolSize: config.DATABASE_POOL_SIZE,
                minIdle: config.DATABASE_POOL_MIN_IDLE,
                connectionTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
                entities: [],
                migrations: allMigrations,
              }),
              (d) => d.close(),
            );
            if (database.embedded) logger.info({ dataDir: path.resolve(config.DATA_DIR) }, 'using the embedded PostgreSQL (PGlite)');
            await database.migrate();
            return database;
          },
        },
        {
          provide: EVENT_STORE,
          inject: [DATABASE, ERASURE_KEYS],
          // Every reader and writer goes through the personal-data layer: declared personal fields are sealed per subject (ADR 0180).
          useFactory: async (database: Database, keys: ErasureKeyStore): Promise<EventStore> =>
            boot.opened(
              new PersonalDataEventStore(
                config.EVENTSTORE_CONNECTION_STRING
                  ? // Loaded only when used: the client and its gRPC stack hold ~10 MB once required.
                    await (
                      await import('@notify/eventstore/eventstoredb/eventstoredb-event-store')
                    ).EventStoreDbEventStore.create(config.EVENTSTORE_CONNECTION_STRING)
                  : await PostgresEventStore.create({
                      pool: database.pool,
                      listenConnectionString: database.supportsNotify ? database.url : undefined,
                      // The erasure tables are in this database (migrated above): reads return
                      // the epoch and sealed appends check their keys in their own statement (ADR 0216).
                      sealingKeyChecks: true,
                      // The trigger endpoint asks whether the recipient read models hold the newest of these (ADR 0258).
                      headTypes: RECIPIENT_EVENT_TYPES,
                    }),
                keys,
              ),
              (store) => store.close(),
            ),
        },
        { provide: LOG_READER, inject: [EVENT_STORE], useFactory: (store: EventStore) => new SharedLogReader(store) },
        {
          provide: ProjectionRuntime,
          inject: [LOG_READER, DATABASE],
          useFactory: (reader: SharedLogReader, database: Database) =>
            new ProjectionRuntime(
              reader,
              database.dataSource,
              allProjections({ scheduleDefaultTimeZone: config.SCHEDULES_DEFAULT_TIMEZONE }),
              { batchSize: config.PROJECTION_BATCH_SIZE, backgroundMaxDeferMs: config.PROJECTION_BACKGROUND_MAX_DEFER_MS, logger },
            ),
        },
        ReadYourWrites,
        { provide: SECRET_BOX, useFactory: () => loadSecretBox(config) },
        {
          provide: ConsoleSessionSigner,
          inject: [SECRET_BOX],
          useFactory: (box: SecretBox) =>
            new ConsoleSessionSigner(
              box.subkey('notify/console-sessions'),
              config.CONSOLE_SESSION_TTL_SECONDS,
              config.CONSOLE_LOGIN_LINK_TTL_SECONDS,
            ),
        },
        {
          provide: ERASURE_KEYS,
          inject: [DATABASE],
          useFactory: async (db: Database) => new ErasureKeyStore(db.pool, await loadErasureMasterKey(config)),
        },
        {
          provide: ENGINE_LOOKUPS,
          inject: [DATABASE, SECRET_BOX],
          useFactory: (db: Database, box: SecretBox) => new ReadModelLookups(db.dataSource, box),
        },
        {
          provide: TEMPLATE_RENDERER,
          useFactory: (): TemplateRenderer =>
            config.TEMPLATE_WORKER_THREADS > 0
              ? boot.opened(
                  new IsolatedRenderer({ threads: config.TEMPLATE_WORKER_THREADS, hardTimeoutMs: config.TEMPLATE_HARD_TIMEOUT_MS }),
                  (r) => r.close(),
                )
              : new TemplateEngine(),
        },
        {
          provide: OUTBOUND_HTTP,
          useFactory: () => new OutboundHttp({ policy: AddressPolicy.allowing(config.OUTBOUND_ALLOWED_ADDRESSES ?? '') }),
        },
        {
          provide: LINK_TRACKER,
          inject: [SECRET_BOX],
          useFactory: (box: SecretBox) =>
            // Made whenever tracked links can point somewhere: channels may turn tracking on for themselves.
            config.PUBLIC_URL ? new LinkTracker(box.subkey('notify/link-tracking'), config.PUBLIC_URL, config.LINK_TRACKING_ENABLED) : null,
        },
        {
          provide: PREFERENCE_LINKS,
          inject: [SECRET_BOX],
          useFactory: (box: SecretBox) =>
            new PreferenceLinks(box.subkey('notify/preference-links'), config.PREFERENCE_LINK_TTL_SECONDS, config.PUBLIC_URL ?? null),
        },
      ],
      exports: [
        LOGGER,
        CLOCK,
        DATABASE,
        EVENT_STORE,
        LOG_READER,
        ProjectionRuntime,
        ReadYourWrites,
        ConfigModule,
        SECRET_BOX,
        ConsoleSessionSigner,
        ERASURE_KEYS,
        ENGINE_LOOKUPS,
        LINK_TRACKER,
        PREFERENCE_LINKS,
        OUTBOUND_HTTP,
        TEMPLATE_RENDERER,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tracing?.shutdown();
    await this.reader.stop();
    await this.store.close();
    await this.database.close();
    await this.outbound.close();
    if (this.templates instanceof IsolatedRenderer) await this.templates.close();
  }
}
