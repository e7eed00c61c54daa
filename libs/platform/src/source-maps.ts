/**
 * Imported first by every entry point, in place of `node --enable-source-maps` (ADR 0155).
 *
 * With source maps enabled, Node reads and keeps the map of every module it loads. TypeORM ships
 * about a thousand of them (16 MB) and rxjs (NestJS's) some 750, all read at start and kept for the
 * life of the process, for stack frames inside those libraries. So they are loaded first, with
 * source maps still off, and source maps are turned on before any module of ours is loaded: our
 * stack traces still point at the TypeScript sources.
 */
import 'typeorm';
import 'rxjs';
import 'rxjs/operators';

process.setSourceMapsEnabled(true);
