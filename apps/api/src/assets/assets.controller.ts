import { Controller, Inject, Module, OnApplicationShutdown, Req, Res } from '@nestjs/common';
import { AssetBlobs, deleteAsset, uploadAsset, uploadAssetStream } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import {
  ASSET_MAX_BYTES,
  AssetT,
  deleteAssetRoute,
  getAssetRoute,
  listAssetsRoute,
  RouteInput,
  serveAssetRoute,
  streamAssetRoute,
  uploadAssetRoute,
} from '@notify/contracts';
import { Database } from '@notify/database';
import { invalidParams, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { Ctx, Endpoint, fileContentTypeOf, Input, PublicUrl, RequestContext } from '@notify/http';
import { DATABASE, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { AssetQueries, AssetRecord, DatabaseAssetBlobs } from '@notify/projections/assets';
import { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { commandMetadata } from '../shared/command-metadata';

/** Where asset contents are kept: the database or an S3-compatible bucket (ASSETS_STORAGE). */
export const ASSET_BLOBS = Symbol('ASSET_BLOBS');

const iso = (d: Date) => new Date(d).toISOString();

/** The asset with its public URL: `/assets/{id}/{filename}` on this service (ADR 0159). */
function present(a: AssetRecord, publicUrl: string): AssetT {
  return {
    id: a.id,
    asset_type: 'library_asset',
    filename: a.filename,
    mime_type: a.mime_type,
    url: `${publicUrl}/assets/${a.id}/${encodeURIComponent(a.filename)}`,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
  };
}

/** Account assets: list (the reference's route), upload, get, delete, and their public content URL. */
@Controller()
export class AssetsController implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly assets: AssetQueries,
    @Inject(ASSET_BLOBS) private readonly blobs: AssetBlobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationShutdown(): void {
    this.blobs.close?.();
  }

  @Endpoint(listAssetsRoute)
  async list(@Input() { query }: RouteInput<typeof listAssetsRoute>, @PublicUrl() publicUrl: string) {
    const { rows, pageInfo } = await this.assets.list(query);
    return {
      entries: rows.map((a) => present(a, publicUrl)),
      page_info: { after: pageInfo.after, before: pageInfo.before, page_size: pageInfo.page_size },
    };
  }

  @Endpoint(uploadAssetRoute)
  async upload(@Input() { body }: RouteInput<typeof uploadAssetRoute>, @Ctx() ctx: RequestContext, @PublicUrl() publicUrl: string) {
    const content = Buffer.from(body.content, 'base64');
    if (content.length > ASSET_MAX_BYTES)
      throw invalidParams([{ field: 'content', message: `must be at most ${ASSET_MAX_BYTES} bytes`, type: 'too_large' }]);
    const { id, outcome } = await uploadAsset(
      this.store,
      this.blobs,
      { filename: body.filename, mimeType: body.mime_type, content },
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return present((await this.assets.get(id))!, publicUrl);
  }

  /** The request body is the file, read as it arrives (ADR 0227). */
  @Endpoint(streamAssetRoute)
  async stream(
    @Input() { query }: RouteInput<typeof streamAssetRoute>,
    @Req() request: FastifyRequest,
    @Ctx() ctx: RequestContext,
    @PublicUrl() publicUrl: string,
  ) {
    // Whatever the Content-Type (JSON, form and text included), the body is the file's bytes and the
    // type is the file's, unless `mime_type` says otherwise; none given: application/octet-stream.
    const mimeType = query.mime_type ?? (fileContentTypeOf(request)?.split(';')[0].trim() || 'application/octet-stream');
    if (!(request.body instanceof Readable))
      throw invalidParams(
        [{ field: '(body)', message: "must be the file's bytes", type: 'invalid' }],
        'Send the file itself as the request body',
      );
    const { id, outcome } = await uploadAssetStream(
      this.store,
      this.blobs,
      { filename: query.filename, mimeType, content: request.body, maxBytes: this.config.ASSETS_MAX_UPLOAD_BYTES },
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return present((await this.assets.get(id))!, publicUrl);
  }

  @Endpoint(getAssetRoute)
  async get(@Input() { params }: RouteInput<typeof getAssetRoute>, @PublicUrl() publicUrl: string) {
    const asset = await this.assets.get(params.id);
    if (!asset) throw resourceMissing('asset');
    return present(asset, publicUrl);
  }

  @Endpoint(deleteAssetRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteAssetRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    const outcome = await deleteAsset(this.store, params.id, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }

  /** The bytes, as uploaded; never sniffed as another type by a browser. */
  @Endpoint(serveAssetRoute)
  async serve(@Input() { params }: RouteInput<typeof serveAssetRoute>, @Res() reply: FastifyReply) {
    const asset = await this.assets.get(params.id);
    const content = asset && (await this.blobs.readBlob(asset.sha256));
    if (!asset || !content) throw resourceMissing('asset');
    return reply
      .status(200)
      .header('content-type', asset.mime_type)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'public, max-age=300')
      .send(content);
  }
}

@Module({
  controllers: [AssetsController],
  providers: [
    { provide: AssetQueries, inject: [DATABASE], useFactory: (db: Database) => new AssetQueries(db.dataSource) },
    {
      provide: ASSET_BLOBS,
      inject: [APP_CONFIG, DATABASE],
      useFactory: async (config: AppConfig, db: Database): Promise<AssetBlobs> => {
        if (config.ASSETS_STORAGE === 'database') return new DatabaseAssetBlobs(db.dataSource);
        // Loaded only when chosen: the AWS SDK is not needed by the default store.
        const { S3AssetBlobs } = await import('./s3-asset-blobs');
        const s3 = S3AssetBlobs.fromConfig(config);
        try {
          await s3.check();
        } catch (error) {
          s3.close();
          throw error;
        }
        return s3;
      },
    },
  ],
})
export class AssetsModule {}
